/**
 * The run contract (issue: runs), one suite for every host: test/node/runs-contract.test.ts
 * (the local store and QuickJS) and test/workers/runs.test.ts (the HubObject's store and
 * Worker Loader isolates, with guest calls routed into the object). Each host hands in its
 * store and sandbox; the suite adds two reviewed sources (`memory`, read-only; `board`, which
 * posts) and a counting upstream standing in for them, so it can prove what reached upstream.
 * Real MCP servers behind the same gate are covered by test/node/runs.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { recordPersonDecision } from '../../engine/approvals/person-input.ts';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import type { JsonValue } from '../../engine/contracts/names.ts';
import type { CallOutcome, DecisionChoice } from '../../engine/contracts/runs.ts';
import { isHubError } from '../../engine/errors.ts';
import type { RunLimits } from '../../engine/limits.ts';
import { buildManifest, type ListedTool } from '../../engine/manifest.ts';
import type { Clock, HubStore, Random } from '../../engine/ports.ts';
import { Runs } from '../../engine/runs/runs.ts';
import type { Sandbox } from '../../engine/sandbox/sandbox.ts';
import { createScrubber } from '../../engine/secrets/scrub.ts';
import { engineSurfaceDeps } from '../../engine/surface/engine-deps.ts';
import { summaryLine } from '../../engine/surface/summary.ts';
import { localWording } from '../../local/wording.ts';
import { storeSources } from '../stored-sources.ts';

export interface RunsHost {
  store: HubStore;
  sandbox: Sandbox;
}

export interface RunsHarness {
  name: string;
  /** Runs `body` with a fresh store and a sandbox, inside the host's own context. */
  withHost(body: (host: RunsHost) => Promise<void>): Promise<void>;
}

const T0 = 1_800_000_000_000;
const HOUR = 60 * 60 * 1000;

const SOURCES: Record<string, ListedTool[]> = {
  memory: [
    {
      name: 'read_graph',
      description: 'Read the entire knowledge graph.',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
    },
  ],
  board: [
    {
      name: 'post',
      description: 'Post a message to the board.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    {
      name: 'list_posts',
      description: 'List the posts on the board.',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
    },
  ],
};

/** Adds `memory` (read-only) and `board` (posts) as reviewed HTTP sources, straight to the store. */
export async function addTestSources(store: HubStore): Promise<void> {
  for (const [namespace, tools] of Object.entries(SOURCES)) {
    const manifest = await buildManifest({ namespace, fetchedAt: T0, tools });
    storeSources(store, [manifest], { reviewed: true, at: T0 });
  }
}

/** The world the suite's code runs against: the host's store and sandbox, a clock, an upstream. */
class World {
  now = T0;
  readonly sent: string[] = [];
  /** When set, every `board.list_posts` call waits for it before answering. */
  hold: Promise<void> | undefined;
  /** What `board.list_posts` answers (none: an empty list). */
  posts: JsonValue = [];
  /** Calls upstream right now, the most at once, and the most runs the store had running meanwhile. */
  readonly inFlight = { now: 0, most: 0, mostRunning: 0 };
  readonly clock: Clock = { now: () => this.now };
  readonly random: Random = { bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) };
  readonly #host: RunsHost;
  #posts = 0;
  /** `hub.search` answers `lookup search <n>`, n counting up: guest code can tell attempts apart by it. */
  #lookups = 0;

  constructor(host: RunsHost) {
    this.#host = host;
  }

  get store(): HubStore {
    return this.#host.store;
  }

  addSources(): Promise<void> {
    return addTestSources(this.store);
  }

  runs(limits: Partial<RunLimits> = {}): Runs {
    return new Runs({
      wording: localWording,
      store: this.store,
      sandbox: this.#host.sandbox,
      clock: this.clock,
      random: this.random,
      upstream: async (address, args, options) => this.#upstream(address, args, options.connection),
      lookup: async (request) => ({ kind: 'value', value: `lookup ${request.kind} ${++this.#lookups}` }),
      limits,
      // As on every host: the hub always holds a secret of its own (its token), so every result is scrubbed.
      scrubbing: { refresh: async () => {}, scrubber: createScrubber(['hub-token-of-the-world-0123']) },
    });
  }

  decide(envelope: ExecuteEnvelope, choice: DecisionChoice): void {
    for (const pending of envelope.pending ?? []) {
      recordPersonDecision(
        { store: this.store, clock: this.clock, random: this.random },
        { pendingId: pending.id, choice, channel: 'cli', who: 'test' },
      );
    }
  }

  /** Replaces one tool of a source's manifest, as a refresh that found it changed would. */
  async changeTool(namespace: string, name: string, change: (tool: ListedTool) => ListedTool): Promise<void> {
    const tools = (SOURCES[namespace] ?? []).map((tool) => (tool.name === name ? change(tool) : tool));
    this.store.putManifest(await buildManifest({ namespace, fetchedAt: ++this.now, tools }));
  }

  /** Connections `personal` (the default) and `work` on `board`. */
  addConnections(): void {
    for (const name of ['personal', 'work']) {
      this.store.putConnection({
        namespace: 'board',
        name,
        isDefault: name === 'personal',
        secrets: [],
        createdAt: T0,
      });
    }
  }

  async #upstream(
    address: string,
    args: { [key: string]: JsonValue },
    connection?: string,
  ): Promise<CallOutcome> {
    this.sent.push(`${address} ${JSON.stringify(args)}${connection ? ` on ${connection}` : ''}`);
    const running = this.store.listRuns({ status: 'running', limit: 1_000 }).filter((r) => r.attempts > 0);
    this.inFlight.mostRunning = Math.max(this.inFlight.mostRunning, running.length);
    this.inFlight.most = Math.max(this.inFlight.most, ++this.inFlight.now);
    const started = performance.now();
    try {
      if (address === 'board.list_posts') await this.hold;
      // A real call takes a moment: long enough for a second attempt to race this one, and for
      // guest code to race a short timer against it. It reports how long it took, as the hub does.
      await new Promise((resolve) => setTimeout(resolve, address === 'memory.read_graph' ? 60 : 20));
    } finally {
      this.inFlight.now--;
    }
    const ms = Math.round(performance.now() - started);
    if (address === 'memory.read_graph') return { ok: true, value: { entities: [] }, ms };
    if (address === 'board.list_posts') return { ok: true, value: this.posts, ms };
    if (address === 'board.post')
      return { ok: true, value: { id: ++this.#posts, text: args.text ?? null }, ms };
    return {
      ok: false,
      error: { code: 'not_found', message: `no tool ${address}`, retryable: false },
      ms,
    };
  }
}

function never(): never {
  throw new Error('expected a value');
}

async function errorOf(body: () => unknown): Promise<string> {
  try {
    await body();
  } catch (error) {
    return isHubError(error) ? `${error.code}: ${error.message}` : String(error);
  }
  return 'no error';
}

export function describeRuns(h: RunsHarness): void {
  const check = (title: string, body: (world: World) => Promise<void>) =>
    it(title, () =>
      h.withHost(async (host) => {
        const world = new World(host);
        await world.addSources();
        await body(world);
      }),
    );

  describe(`Run contract: ${h.name}`, () => {
    check('J2: the read runs, the post asks once, resume completes it, nothing runs twice', async (w) => {
      const code = `
        const graph = await memory.read_graph({});
        const posted = await board.post({ text: "entities: " + graph.entities.length });
        return { posted };
      `;
      const first = await w.runs().execute(code);
      expect(first.error).toBeUndefined();
      expect(first.status).toBe('awaiting_approval');
      expect(first.calls).toEqual([{ address: 'memory.read_graph', ok: true, ms: expect.any(Number) }]);
      expect(first.pending).toEqual([
        {
          id: expect.stringMatching(/^pending_/),
          kind: 'approval',
          address: 'board.post',
          summary: 'Post a message to the board.',
          message: expect.stringContaining(`capabilities hub approve ${first.runId}`),
        },
      ]);
      expect(await w.runs().resume(first.runId)).toEqual(first);
      expect(w.sent).toEqual(['memory.read_graph {}']);

      w.decide(first, 'once');
      const done = await w.runs().resume(first.runId);
      expect(done).toMatchObject({ status: 'completed', result: { posted: { id: 1, text: 'entities: 0' } } });
      expect(w.sent).toEqual(['memory.read_graph {}', 'board.post {"text":"entities: 0"}']);
    });

    check('"run": a loop of 20 posts asks once', async (w) => {
      const first = await w
        .runs()
        .execute(
          'const ids = []; for (let i = 0; i < 20; i++) ids.push((await board.post({ text: "n" + i })).id); return ids.length;',
        );
      w.decide(first, 'run');
      expect(await w.runs().resume(first.runId)).toMatchObject({ status: 'completed', result: 20 });
      expect(w.sent).toHaveLength(20);
      expect(w.store.listPendingInputs(first.runId)).toHaveLength(1);
    });

    check('"deny": the call fails in the guest with approval_denied and the code goes on', async (w) => {
      const first = await w.runs().execute(`
        try { await board.post({ text: "spam" }); return "posted"; }
        catch (e) { console.log(e); return { name: e.name, code: e.code, address: e.address }; }
      `);
      w.decide(first, 'deny');
      const resumed = await w.runs().resume(first.runId);
      expect(resumed).toMatchObject({
        status: 'completed',
        result: { name: 'ToolError', code: 'approval_denied', address: 'board.post' },
      });
      // A logged ToolError names its tool, as an uncaught one's report does.
      expect(resumed.logs?.[0]).toMatch(/^ToolError: board\.post: a person denied this call/);
      expect(w.sent).toEqual([]);
    });

    check('"always": a rule pinned to the contract, so the next run does not ask', async (w) => {
      const first = await w.runs().execute('return await board.post({ text: "a" })');
      w.decide(first, 'always');
      expect((await w.runs().resume(first.runId)).status).toBe('completed');
      expect(await w.runs().execute('return await board.post({ text: "b" })')).toMatchObject({
        status: 'completed',
        result: { text: 'b' },
      });
    });

    check('replay is deterministic: the same Date and random values on every attempt', async (w) => {
      const first = await w.runs().execute(`
        const before = { t: Date.now(), r: Math.random(), u: crypto.randomUUID() };
        console.log(JSON.stringify(before));
        await board.post({ text: "x" });
        return before;
      `);
      w.now += 60_000;
      w.decide(first, 'once');
      const done = await w.runs().resume(first.runId);
      expect(done.status).toBe('completed');
      expect(done.logs?.[0]).toBe(JSON.stringify(done.result));
    });

    check('an approve and a model resume at once: one attempt runs, the other is told busy', async (w) => {
      const first = await w.runs().execute('return await board.post({ text: "once" })');
      w.decide(first, 'once');
      const [a, b] = await Promise.allSettled([w.runs().resume(first.runId), w.runs().resume(first.runId)]);
      const outcomes = [a, b].map((r) =>
        r.status === 'fulfilled'
          ? r.value.status
          : isHubError(r.reason)
            ? r.reason.message
            : String(r.reason),
      );
      expect(outcomes).toContain('completed');
      expect(outcomes).toContainEqual(expect.stringMatching(/is being run by another attempt right now/));
      expect(w.sent).toEqual(['board.post {"text":"once"}']);
      expect(w.runs().envelope(first.runId)).toMatchObject({ status: 'completed', result: { id: 1 } });
    });

    check('a request not decided in time expires the run, on resume or by the sweep', async (w) => {
      const first = await w.runs().execute('return await board.post({ text: "late" })');
      const second = await w.runs().execute('return await board.post({ text: "later" })');
      expect(w.runs().sweep()).toEqual({
        expired: 0,
        pruned: 0,
        nextExpiry: expect.any(Number),
      });
      w.now += 25 * HOUR;
      expect(await errorOf(() => w.decide(first, 'once'))).toMatch(/^denied: .*expired/);
      expect((await w.runs().resume(first.runId)).error?.code).toBe('expired');
      expect(w.runs().sweep()).toEqual({ expired: 1, pruned: 0, nextExpiry: undefined });
      expect(w.store.getRun(second.runId)?.status).toBe('expired');
      expect(w.runs().envelope(second.runId).error?.code).toBe('expired');
      expect(w.sent).toEqual([]);
    });

    check('runs that ended more than 7 days ago are deleted with their journals', async (w) => {
      const old = await w.runs().execute('return await memory.read_graph({})');
      w.now += 6 * 24 * HOUR;
      const recent = await w.runs().execute('return 1');
      w.now += 1 * 24 * HOUR + 1;
      expect(w.runs().sweep()).toMatchObject({ pruned: 1 });
      expect(await errorOf(() => w.runs().envelope(old.runId))).toMatch(/^not_found/);
      expect(w.store.listJournal(old.runId)).toEqual([]);
      expect(w.runs().envelope(recent.runId).status).toBe('completed');
    });

    check(
      'bad input: an unknown, completed or cancelled run; a decision twice; no pending call',
      async (w) => {
        expect(await errorOf(() => w.runs().resume('run_nope'))).toMatch(/^not_found: no run run_nope/);
        const done = await w.runs().execute('return 1');
        expect(await errorOf(() => w.runs().resume(done.runId))).toBe(
          `conflict: run ${done.runId} is completed; there is nothing to resume. Run the code again as a new execute.`,
        );
        const asked = await w.runs().execute('return await board.post({ text: "t" })');
        w.decide(asked, 'once');
        expect(await errorOf(() => w.decide(asked, 'deny'))).toMatch(/already decided \(once, by cli\)/);
        const cancelled = await w.runs().execute('return await board.post({ text: "c" })');
        w.runs().cancel(cancelled.runId);
        expect(await errorOf(() => w.runs().resume(cancelled.runId))).toMatch(/is cancelled/);
        expect(await errorOf(() => w.decide(cancelled, 'once'))).toMatch(/is cancelled, not waiting/);
        expect(w.sent).toEqual([]);
      },
    );

    check('a running run whose attempt went silent is taken over; a live one is not', async (w) => {
      const run = await w.runs().execute('return await board.post({ text: "p" })');
      w.decide(run, 'once');
      // As if a process claimed the attempt and died before its first heartbeat.
      w.store.updateRun(run.runId, { status: 'running', attempts: 2, updatedAt: w.now });
      expect(await errorOf(() => w.runs().resume(run.runId))).toMatch(
        /^conflict: .*being run by another attempt/,
      );
      w.now += 6_000;
      expect(await w.runs().resume(run.runId)).toMatchObject({ status: 'completed', result: { id: 1 } });
      expect(w.sent).toEqual(['board.post {"text":"p"}']);
    });

    check('a cancel stops a live attempt at its next call', async (w) => {
      const running = w
        .runs()
        .execute('for (let i = 0; i < 5; i++) await board.list_posts({}); return "all five"');
      for (let i = 0; i < 500 && w.sent.length === 0; i++) await new Promise((r) => setTimeout(r, 2));
      const [run] = w.store.listRuns({ status: 'running' });
      if (!run) throw new Error('the run did not start');
      w.runs().cancel(run.id);
      const ended = await running;
      expect(ended.status).toBe('cancelled');
      expect(w.sent).toEqual(['board.list_posts {}']);
    });

    check(
      'a large result is kept as a handle of its run, read by slice and path, replayed, pruned with the run',
      async (w) => {
        // About 1.5 MB of UTF-8 over more than one stored chunk, in characters of every UTF-8
        // length, with the hub's own secret in it.
        w.posts = Array.from({ length: 1500 }, (_, id) => ({
          id,
          text: id === 7 ? 'hub-token-of-the-world-0123' : 'aé€😀'.repeat(100),
        }));
        const code = `
        const posts = await board.list_posts({});
        const first = await hub.read(posts, { offset: 0, length: 30 });
        const seventh = await hub.read(posts, { path: "[7].text" });
        const last = await hub.read(posts, { path: "[1499].id" });
        const posted = await board.post({ text: seventh });
        return { posts, first, seventh, last, posted };
      `;
        const asked = await w.runs().execute(code);
        expect(asked.status).toBe('awaiting_approval');
        const kept = w.store.listJournal(asked.runId)[0]?.outcome;
        const handle = kept?.ok ? (kept.value as { handle: string; bytes: number }) : never();
        expect(handle).toMatchObject({
          handle: expect.stringMatching(/^res_/),
          mediaType: 'application/json',
        });
        const text = w.store.readResultBlobText(handle.handle) ?? never();
        expect(text).not.toContain('hub-token');
        expect(new TextEncoder().encode(text).length).toBe(handle.bytes);
        expect(JSON.parse(text)[1499].text).toBe('aé€😀'.repeat(100));

        w.decide(asked, 'once');
        const done = await w.runs().resume(asked.runId);
        expect(done).toMatchObject({
          status: 'completed',
          result: { posts: handle, first: '[{"id":0,"text":"aé€😀aé', seventh: '[secret]', last: 1499 },
        });
        expect(w.sent.filter((s) => s.startsWith('board.list_posts'))).toHaveLength(1);
        expect(new TextEncoder().encode(JSON.stringify(done)).length).toBeLessThan(24 * 1024);

        const other = await w
          .runs()
          .execute(
            `try { return await hub.read(${JSON.stringify(handle.handle)}) } catch (e) { return e.code + ": " + e.message }`,
          );
        expect(other.result).toMatch(/^not_found: res_\w+ is a result of another run/);

        w.now += 8 * 24 * HOUR;
        w.runs().sweep();
        expect(w.store.getResultBlobInfo(handle.handle)).toBeUndefined();
        expect(w.store.readResultBlobText(handle.handle)).toBeUndefined();
      },
    );

    check('the sweep ends runs left behind for a day, then prunes them after retention', async (w) => {
      const decided = await w.runs().execute('return await board.post({ text: "d" })');
      w.decide(decided, 'once');
      w.store.createRun({
        ...(w.store.getRun(decided.runId) ?? never()),
        id: 'run_orphan',
        status: 'running',
      });
      w.now += 23 * HOUR;
      expect(w.runs().sweep().expired).toBe(0);
      w.now += 2 * HOUR;
      expect(w.runs().sweep()).toMatchObject({ expired: 2 });
      expect(w.store.getRun(decided.runId)?.error?.message).toMatch(/decided but no one resumed it/);
      expect(w.store.getRun('run_orphan')?.error?.code).toBe('abandoned');
      w.now += 8 * 24 * HOUR;
      expect(w.runs().sweep().pruned).toBe(2);
      expect(w.sent).toEqual([]);
    });

    // ── Attacks on a decision (issue: security, finding 1). Guest code tells its first attempt
    // from a resume (here by `hub.search`, which is not journaled; in the wild by a timer race)
    // and asks with harmless arguments, then sends others once a person decided.

    check('attack: "once" covers only the arguments shown; others ask again and say so', async (w) => {
      const code = `
        const attempt = await hub.search("which attempt");
        const path = attempt.endsWith(" 1") ? "/home/ada/notes.txt" : "/home/ada/.ssh/authorized_keys";
        return await board.post({ text: path });
      `;
      const first = await w.runs().execute(code);
      expect(w.store.listPendingInputs(first.runId)).toMatchObject([
        { seq: 0, address: 'board.post', argsPreview: expect.stringContaining('notes.txt') },
      ]);
      w.decide(first, 'once');
      const second = await w.runs().resume(first.runId);
      expect(second.status).toBe('awaiting_approval');
      expect(w.sent).toEqual([]);
      const [shown, asked] = w.store.listPendingInputs(first.runId);
      expect(asked).toMatchObject({
        seq: 0,
        address: 'board.post',
        argsPreview: expect.stringContaining('authorized_keys'),
        reason: expect.stringContaining(
          'differs from the call a person allowed at this point of the run: with other arguments',
        ),
      });
      expect(asked?.id).not.toBe(shown?.id);
      expect(second.pending?.map((p) => p.id)).toEqual([asked?.id]);
      w.decide(second, 'once');
      expect(await w.runs().resume(first.runId)).toMatchObject({ status: 'completed' });
      expect(w.sent).toEqual(['board.post {"text":"/home/ada/.ssh/authorized_keys"}']);
    });

    check('attack: an approval shown on the default connection does not move to another', async (w) => {
      w.addConnections();
      const first = await w.runs().execute(`
        const attempt = await hub.search("which attempt");
        return await board.post({ text: "hi" }, attempt.endsWith(" 1") ? {} : { connection: "work" });
      `);
      expect(w.store.listPendingInputs(first.runId)).toMatchObject([{ connection: 'personal' }]);
      w.decide(first, 'once');
      const second = await w.runs().resume(first.runId);
      expect(second.status).toBe('awaiting_approval');
      expect(w.store.listPendingInputs(first.runId)[1]).toMatchObject({
        connection: 'work',
        reason: expect.stringContaining('on connection work, not personal'),
      });
      expect(w.sent).toEqual([]);
    });

    check('attack: "run" covers the tool on the connection shown, not on another', async (w) => {
      w.addConnections();
      const first = await w.runs().execute(`
        for (let i = 0; i < 3; i++) await board.post({ text: "p" + i });
        return await board.post({ text: "w" }, { connection: "work" });
      `);
      w.decide(first, 'run');
      const second = await w.runs().resume(first.runId);
      expect(second.status).toBe('awaiting_approval');
      expect(second.pending).toMatchObject([{ address: 'board.post' }]);
      expect(w.sent).toEqual([
        'board.post {"text":"p0"} on personal',
        'board.post {"text":"p1"} on personal',
        'board.post {"text":"p2"} on personal',
      ]);
      w.decide(second, 'once');
      expect(await w.runs().resume(first.runId)).toMatchObject({ status: 'completed' });
      expect(w.sent.at(-1)).toBe('board.post {"text":"w"} on work');
    });

    check('attack: a "deny" refuses the call shown; another call there asks, it is not run', async (w) => {
      const first = await w.runs().execute(`
        const attempt = await hub.search("which attempt");
        try { return await board.post({ text: attempt.endsWith(" 1") ? "spam" : "other" }); }
        catch (e) { return e.code; }
      `);
      w.decide(first, 'deny');
      const second = await w.runs().resume(first.runId);
      expect(second.status).toBe('awaiting_approval');
      expect(w.store.listPendingInputs(first.runId)[1]?.reason).toContain(
        'differs from the call a person denied',
      );
      expect(w.sent).toEqual([]);
    });

    check('attack: racing a timer against a replayed call sees what the first attempt saw', async (w) => {
      const first = await w.runs().execute(`
        const seen = await Promise.race([
          memory.read_graph({}).then(() => "call"),
          new Promise((resolve) => setTimeout(() => resolve("timer"), 5)),
        ]);
        return await board.post({ text: seen });
      `);
      expect(w.store.listPendingInputs(first.runId)).toMatchObject([
        { argsPreview: expect.stringContaining('timer') },
      ]);
      w.decide(first, 'once');
      // The replayed read answers no sooner than it took when it ran, so the timer wins again and
      // the call is the one the person allowed.
      expect(await w.runs().resume(first.runId)).toMatchObject({
        status: 'completed',
        result: { text: 'timer' },
      });
      expect(w.sent).toEqual(['memory.read_graph {}', 'board.post {"text":"timer"}']);
    });

    check('attack: a tool that changes upstream after asking is not allowed by the answer', async (w) => {
      const first = await w.runs().execute('return await board.post({ text: "hi" })');
      // The server changes the tool (a new field) before the person answers what they were shown.
      await w.changeTool('board', 'post', (tool) => ({
        ...tool,
        inputSchema: {
          ...tool.inputSchema,
          properties: { text: { type: 'string' }, bcc: { type: 'string' } },
        },
      }));
      expect(await errorOf(() => w.decide(first, 'always'))).toMatch(
        /^conflict: .*changed upstream since this call asked/,
      );
      w.decide(first, 'once');
      const second = await w.runs().resume(first.runId);
      expect(second.status).toBe('awaiting_approval');
      expect(w.store.listPendingInputs(first.runId).at(-1)?.reason).toContain(
        'the tool changed upstream since',
      );
      expect(w.sent).toEqual([]);
    });

    check(
      'attack: "always" on a call with no connection does not cover connections added later',
      async (w) => {
        const first = await w.runs().execute('return await board.post({ text: "a" })');
        w.decide(first, 'always');
        expect((await w.runs().resume(first.runId)).status).toBe('completed');
        expect(w.store.listPolicyRules('board.post').filter((r) => r.effect === 'allow')).toMatchObject([
          { connection: null },
        ]);
        w.addConnections();
        for (const options of ['', ', { connection: "work" }']) {
          const later = await w.runs().execute(`return await board.post({ text: "b" }${options})`);
          expect(later.status).toBe('awaiting_approval');
        }
        expect(w.sent).toEqual(['board.post {"text":"a"}']);
      },
    );

    check('attack: a deny rule added after a person allowed the call still wins', async (w) => {
      const first = await w
        .runs()
        .execute('try { return await board.post({ text: "x" }); } catch (e) { return e.code; }');
      w.decide(first, 'once');
      w.store.addPolicyRule({
        id: 'rule_deny_post',
        target: { kind: 'tool', address: 'board.post' },
        effect: 'deny',
        createdAt: T0,
      });
      expect(await w.runs().resume(first.runId)).toMatchObject({ status: 'completed', result: 'denied' });
      expect(w.sent).toEqual([]);
    });

    check('a result or arguments nested thousands deep end the run; it never stays running', async (w) => {
      for (const code of [
        'let a = []; for (let i = 0; i < 3000; i++) a = [a]; return a;',
        'let a = {}; for (let i = 0; i < 3000; i++) a = { a }; try { await board.list_posts(a); } catch (e) { return e.code; }',
      ]) {
        const done = await w.runs().execute(code);
        expect(['completed', 'failed']).toContain(done.status);
        expect(w.store.getRun(done.runId)?.status).not.toBe('running');
      }
      expect(w.sent).toEqual([]);
    });

    check('a resume while another attempt runs the run answers "running", never "failed"', async (w) => {
      const running = w
        .runs()
        .execute('for (let i = 0; i < 5; i++) await board.list_posts({}); return "all five"');
      for (let i = 0; i < 500 && w.sent.length === 0; i++) await new Promise((r) => setTimeout(r, 2));
      const [run] = w.store.listRuns({ status: 'running' });
      if (!run) throw new Error('the run did not start');
      const surface = engineSurfaceDeps(
        {
          wording: localWording,
          lookup: { search: () => '', describe: () => '' },
          runs: async () => w.runs(),
        },
        { version: 'test' },
      );
      const answer = await surface.resume(run.id);
      expect(answer).toMatchObject({ runId: run.id, status: 'running', retryAfterMs: expect.any(Number) });
      expect(answer.error).toBeUndefined();
      expect(answer.calls.every((call) => call.ok)).toBe(true);
      expect(summaryLine(answer, localWording)).toMatch(/running: .*nothing failed.*again in \d+ seconds/);
      expect(await running).toMatchObject({ status: 'completed', result: 'all five' });
      expect(w.sent).toHaveLength(5);
    });
    check(
      'twenty executes at once: never more than the cap run, the rest wait, each completes once',
      async (w) => {
        const cap = 3;
        const runs = w.runs({ concurrentAttempts: cap });
        // A run whose post a person allowed, not yet resumed.
        const decided = await runs.execute('return await board.post({ text: "decided" })');
        w.decide(decided, 'once');
        // Each call waits until new code fills its slots (all but the one kept for resumes), or the
        // last runs are in.
        let release = () => {};
        w.hold = new Promise<void>((resolve) => {
          release = resolve;
        });
        const done = Array.from({ length: 20 }, (_, i) =>
          runs.execute(`return (await board.list_posts({ i: ${i} })).length + ${i};`),
        );
        for (let i = 0; i < 1_000 && w.inFlight.now < cap - 1; i++)
          await new Promise((r) => setTimeout(r, 2));
        // The slot kept for resumes: a run a person decided goes on while new code fills the rest.
        expect(await runs.resume(decided.runId)).toMatchObject({
          status: 'completed',
          result: { text: 'decided' },
        });
        release();
        const envelopes = await Promise.all(done);
        expect(envelopes.map((e) => [e.status, e.result])).toEqual(
          Array.from({ length: 20 }, (_, i) => ['completed', i]),
        );
        expect(w.inFlight.most).toBe(cap);
        expect(w.inFlight.mostRunning).toBeLessThanOrEqual(cap);
        expect([...w.sent].sort()).toEqual(
          [
            'board.post {"text":"decided"}',
            ...Array.from({ length: 20 }, (_, i) => `board.list_posts {"i":${i}}`),
          ].sort(),
        );
        expect(
          w.store
            .listRuns({ limit: 100 })
            .filter((r) => r.code.includes('list_posts'))
            .map((r) => [r.status, r.attempts]),
        ).toEqual(Array.from({ length: 20 }, () => ['completed', 1]));
      },
    );

    check(
      'no slot in time: a new execute is told busy and kept nowhere; a resume is left as it was',
      async (w) => {
        const runs = w.runs({ concurrentAttempts: 1, attemptQueueMs: 0 });
        const asked = await runs.execute('return await board.post({ text: "a" })');
        w.decide(asked, 'once');
        let release = () => {};
        w.hold = new Promise<void>((resolve) => {
          release = resolve;
        });
        const holder = runs.execute('await board.list_posts({}); return "held";');
        for (let i = 0; i < 1_000 && w.sent.length === 0; i++) await new Promise((r) => setTimeout(r, 2));
        expect(await errorOf(() => runs.execute('return 1'))).toMatch(
          /^unavailable: the hub is busy: it runs at most 1 attempt at once and none ended within 0 ms, so nothing was run or kept\. Call execute again in a few seconds\.$/,
        );
        expect(await errorOf(() => runs.resume(asked.runId))).toBe(
          `unavailable: the hub is busy: it runs at most 1 attempt at once and none ended within 0 ms, so run ${asked.runId} is unchanged. Call execute({ resume: "${asked.runId}" }) again in a few seconds.`,
        );
        expect(w.store.listRuns({ limit: 100 })).toHaveLength(2);
        expect(w.store.getRun(asked.runId)).toMatchObject({ status: 'awaiting_input', attempts: 1 });
        release();
        expect(await holder).toMatchObject({ status: 'completed', result: 'held' });
        expect(await runs.resume(asked.runId)).toMatchObject({ status: 'completed', result: { id: 1 } });
        expect(w.sent).toEqual(['board.list_posts {}', 'board.post {"text":"a"}']);
      },
    );

    check('maxCalls ends the calls of a run across attempts, inside the guest', async (w) => {
      const done = await w
        .runs({ maxCalls: 3 })
        .execute(
          'let n = 0; try { for (;;) { await board.list_posts({}); n++; } } catch (e) { return { n, code: e.code }; }',
        );
      expect(done).toMatchObject({ status: 'completed', result: { n: 3, code: 'limit' } });
      expect(w.sent).toHaveLength(3);
    });
  });
}

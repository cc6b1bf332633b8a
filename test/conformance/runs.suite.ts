/**
 * The run contract (issue: runs), one suite for every host: test/node/runs-contract.test.ts
 * (the local store and QuickJS) and test/workers/runs.test.ts (the HubObject's store and
 * Worker Loader isolates, with guest calls routed into the object). Each host hands in its
 * store and sandbox; the suite adds two reviewed sources (`memory`, read-only; `board`, which
 * posts) and a counting upstream standing in for them, so it can prove what reached upstream.
 * Real MCP servers behind the same gate are covered by test/node/runs.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { CallOutcome, DecisionChoice, ExecuteEnvelope, JsonValue } from '../../engine/contracts.ts';
import { isHubError } from '../../engine/errors.ts';
import { buildManifest, type ListedTool } from '../../engine/manifest.ts';
import type { Clock, HubStore, Random, Sandbox } from '../../engine/ports.ts';
import type { RunLimits } from '../../engine/runs/limits.ts';
import { recordPersonDecision } from '../../engine/runs/person-input.ts';
import { Runs } from '../../engine/runs/runs.ts';

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
    store.atomically(() => {
      store.addSource({
        kind: 'mcp-http',
        namespace,
        url: `https://${namespace}.example/mcp`,
        allowedHosts: [`${namespace}.example`],
        addedAt: T0,
        updatedAt: T0,
      });
      store.putManifest(manifest);
      for (const tool of manifest.tools) {
        store.putReview({ address: tool.address, namespace, contract: tool.contract, tool, reviewedAt: T0 });
      }
    });
  }
}

/** The world the suite's code runs against: the host's store and sandbox, a clock, an upstream. */
class World {
  now = T0;
  readonly sent: string[] = [];
  /** When set, every upstream call waits for it before answering. */
  hold: Promise<void> | undefined;
  /** Calls upstream right now, the most at once, and the most runs the store had running meanwhile. */
  readonly inFlight = { now: 0, most: 0, mostRunning: 0 };
  readonly clock: Clock = { now: () => this.now };
  readonly random: Random = { bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) };
  readonly #host: RunsHost;
  #posts = 0;

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
      store: this.store,
      sandbox: this.#host.sandbox,
      clock: this.clock,
      random: this.random,
      upstream: async (address, args) => this.#upstream(address, args),
      lookup: async (request) => ({ kind: 'value', value: `lookup ${request.kind}` }),
      limits,
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

  async #upstream(address: string, args: { [key: string]: JsonValue }): Promise<CallOutcome> {
    this.sent.push(`${address} ${JSON.stringify(args)}`);
    const running = this.store.listRuns({ status: 'running', limit: 1_000 }).filter((r) => r.attempts > 0);
    this.inFlight.mostRunning = Math.max(this.inFlight.mostRunning, running.length);
    this.inFlight.most = Math.max(this.inFlight.most, ++this.inFlight.now);
    try {
      await this.hold;
      // A real call takes a moment: long enough for a second attempt to race this one.
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      this.inFlight.now--;
    }
    if (address === 'memory.read_graph') return { ok: true, value: { entities: [] }, ms: 1 };
    if (address === 'board.list_posts') return { ok: true, value: [], ms: 1 };
    if (address === 'board.post')
      return { ok: true, value: { id: ++this.#posts, text: args.text ?? null }, ms: 1 };
    return {
      ok: false,
      error: { code: 'not_found', message: `no tool ${address}`, retryable: false },
      ms: 1,
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
        catch (e) { return { name: e.name, code: e.code, address: e.address }; }
      `);
      w.decide(first, 'deny');
      expect(await w.runs().resume(first.runId)).toMatchObject({
        status: 'completed',
        result: { name: 'ToolError', code: 'approval_denied', address: 'board.post' },
      });
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

    check(
      'twenty executes at once: never more than the cap run, the rest wait, each completes once',
      async (w) => {
        const cap = 3;
        const runs = w.runs({ concurrentAttempts: cap });
        // Each call waits until the cap is reached (or the last runs are in), so slots are full.
        let release = () => {};
        w.hold = new Promise<void>((resolve) => {
          release = resolve;
        });
        const done = Array.from({ length: 20 }, (_, i) =>
          runs.execute(`return (await board.list_posts({ i: ${i} })).length + ${i};`),
        );
        for (let i = 0; i < 1_000 && w.inFlight.now < cap; i++) await new Promise((r) => setTimeout(r, 2));
        release();
        const envelopes = await Promise.all(done);
        expect(envelopes.map((e) => [e.status, e.result])).toEqual(
          Array.from({ length: 20 }, (_, i) => ['completed', i]),
        );
        expect(w.inFlight.most).toBe(cap);
        expect(w.inFlight.mostRunning).toBeLessThanOrEqual(cap);
        expect([...w.sent].sort()).toEqual(
          Array.from({ length: 20 }, (_, i) => `board.list_posts {"i":${i}}`).sort(),
        );
        expect(w.store.listRuns({ limit: 100 }).map((r) => [r.status, r.attempts])).toEqual(
          Array.from({ length: 20 }, () => ['completed', 1]),
        );
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

/**
 * The run contract, what a call's outcome says (issue #38), on every host: run by
 * test/node/runs-contract.test.ts (the local store, QuickJS) and test/workers/runs.test.ts (the
 * HubObject's store, Worker Loader). Unlike runs.suite.ts, whose upstream is a function standing
 * in for the hub's, calls here go through the hub's own Upstream and McpConnector (the MCP SDK
 * client over Streamable HTTP) to a server whose answers break the output schemas its tools
 * declare (test/fixtures/drifting-upstream.ts), so what the journal records and the model is told
 * is what a real server's answer produces.
 *
 * Held: an answer is an answer whatever its shape (a read and a write that break their schema
 * complete with the answer and a notice; the write is sent once and a resume sends nothing); a
 * write sent and never answered is `outcome_unknown` and never sent again; a write to a server
 * that cannot be reached is `upstream_unavailable`, said as not sent.
 */
import { describe, expect, it } from 'vitest';
import { recordPersonDecision } from '../../engine/approvals/person-input.ts';
import type { FetchLike } from '../../engine/connectors/guarded-fetch.ts';
import { McpConnector } from '../../engine/connectors/mcp-connector.ts';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import type { DecisionChoice } from '../../engine/contracts/runs.ts';
import type { RunLimits } from '../../engine/limits.ts';
import { buildManifest, type ListedTool } from '../../engine/manifest.ts';
import type { Clock, HubStore, Random } from '../../engine/ports.ts';
import { Runs } from '../../engine/runs/runs.ts';
import { HubSecrets } from '../../engine/secrets/hub-secrets.ts';
import { Upstream } from '../../engine/sources/upstream.ts';
import { localWording } from '../../local/wording.ts';
import { DRIFT_TOOLS, type DriftingUpstream, driftingUpstream } from '../fixtures/drifting-upstream.ts';
import { storeSources } from '../stored-sources.ts';
import type { RunsHarness, RunsHost } from './runs.suite.ts';

const T0 = 1_800_000_000_000;

/** A hub over the host's store whose one source, `ledger`, is the drifting server (or one that refuses). */
class Ledger {
  readonly server: DriftingUpstream = driftingUpstream();
  readonly clock: Clock = { now: () => T0 };
  readonly random: Random = { bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) };
  readonly connector: McpConnector;
  readonly #host: RunsHost;

  constructor(host: RunsHost, reachable: boolean) {
    this.#host = host;
    const refused: FetchLike = async () => {
      // What Node's fetch throws when nothing listens at the address.
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 203.0.113.7:443'), {
          code: 'ECONNREFUSED',
          syscall: 'connect',
        }),
      });
    };
    this.connector = new McpConnector({
      version: 'test',
      wording: localWording,
      fetch: reachable ? this.server.fetch : refused,
    });
  }

  get store(): HubStore {
    return this.#host.store;
  }

  /** `ledger` added and reviewed: its read runs, its writes ask. */
  async add(): Promise<void> {
    const tools = DRIFT_TOOLS as unknown as ListedTool[];
    const manifest = await buildManifest({ namespace: 'ledger', fetchedAt: T0, tools });
    // Added at https://ledger.example/mcp; the connector's fetch is the drifting server's.
    storeSources(this.store, [manifest], { reviewed: true, at: T0 });
  }

  runs(limits: Partial<RunLimits> = {}): Runs {
    const { store, clock, random } = this;
    const hubSecrets = new HubSecrets({ store, clock });
    const upstream = new Upstream({
      store,
      connector: this.connector,
      clock,
      random,
      hubSecrets,
      wording: localWording,
    });
    return new Runs({
      store,
      sandbox: this.#host.sandbox,
      clock,
      random,
      upstream: (address, args, options) => upstream.callTool(address, args, options),
      lookup: async () => ({ kind: 'value', value: '' }),
      limits,
      scrubbing: hubSecrets,
      wording: localWording,
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

  /** Executes `code`, approves what it asks once, and resumes it: the envelope it ends with. */
  async approved(code: string, limits: Partial<RunLimits> = {}): Promise<ExecuteEnvelope> {
    const first = await this.runs(limits).execute(code);
    expect(first.status, JSON.stringify(first)).toBe('awaiting_approval');
    this.decide(first, 'once');
    return this.runs(limits).resume(first.runId);
  }
}

const MISMATCH = /does not match its declared output schema/;

export function describeRunAnswers(h: RunsHarness): void {
  const check = (title: string, body: (ledger: Ledger) => Promise<void>, reachable = true) =>
    it(title, () =>
      h.withHost(async (host) => {
        const ledger = new Ledger(host, reachable);
        try {
          await ledger.add();
          await body(ledger);
        } finally {
          await ledger.connector.close();
        }
      }),
    );

  describe(`Run contract, what a call's outcome says: ${h.name}`, () => {
    check(
      'a read whose answer breaks its output schema completes with the answer and a notice',
      async (l) => {
        const done = await l.runs().execute('return await ledger.read_totals({})');
        expect(done).toMatchObject({
          status: 'completed',
          result: { total: '12 entries' },
          calls: [{ address: 'ledger.read_totals', ok: true }],
        });
        expect(done.notices).toEqual([expect.stringMatching(MISMATCH)]);
        expect(done.notices?.[0]).toMatch(/^ledger\.read_totals answered with structured content/);
        expect(l.server.calls).toEqual(['read_totals']);
      },
    );

    check(
      'a write whose answer breaks its schema is sent once and reported made; a resume sends nothing',
      async (l) => {
        // The second write asks after the first was made: the resume that makes it replays the first.
        const code = `
        const first = await ledger.add_entry({ text: "hello" });
        const second = await ledger.add_entry({ text: "again" });
        return { first, second };
      `;
        const asked = await l.approved(code);
        expect(asked).toMatchObject({
          status: 'awaiting_approval',
          calls: [{ address: 'ledger.add_entry', ok: true }],
        });
        expect(asked.error).toBeUndefined();
        expect(asked.notices).toEqual([expect.stringMatching(MISMATCH)]);
        expect(l.store.listJournal(asked.runId).map((entry) => entry.outcome?.ok)).toEqual([true]);
        expect(l.server.calls).toEqual(['add_entry hello']);
        l.decide(asked, 'once');
        const done = await l.runs().resume(asked.runId);
        expect(done).toMatchObject({
          status: 'completed',
          result: { first: { id: 'entry-1', text: 'hello' }, second: { id: 'entry-2', text: 'again' } },
        });
        expect(l.server.calls).toEqual(['add_entry hello', 'add_entry again']);
      },
    );

    check(
      'a write that declares structured content and answers text alone: its text, and a notice',
      async (l) => {
        const done = await l.approved('return await ledger.bare_entry({ text: "plain" })');
        expect(done).toMatchObject({ status: 'completed', result: 'added entry 1: plain' });
        expect(done.notices).toEqual([
          expect.stringMatching(/declares an output schema but answered without structured content/),
        ]);
        expect(l.server.calls).toEqual(['bare_entry plain']);
      },
    );

    check(
      'a write sent and never answered is outcome_unknown, and a resume never sends it again',
      async (l) => {
        const limits = { upstreamTimeoutMs: 300 };
        const code = `
        let lost;
        try { await ledger.hang({ text: "lost" }); } catch (e) { lost = { code: e.code, retryable: e.retryable, message: e.message }; }
        await ledger.add_entry({ text: "after" });
        return lost;
      `;
        const asked = await l.approved(code, limits);
        expect(asked).toMatchObject({
          status: 'awaiting_approval',
          calls: [{ address: 'ledger.hang', ok: false }],
        });
        expect(l.server.calls).toEqual(['hang lost']);
        l.decide(asked, 'once');
        const done = await l.runs(limits).resume(asked.runId);
        expect(done).toMatchObject({
          status: 'completed',
          result: {
            code: 'outcome_unknown',
            retryable: false,
            message: expect.stringMatching(/\(the call was sent; whether it happened is unknown\)$/),
          },
        });
        expect(l.server.calls).toEqual(['hang lost', 'add_entry after']);
      },
    );

    check(
      'a write to a server that cannot be reached is upstream_unavailable, said as not sent',
      async (l) => {
        const done = await l.approved('return await ledger.add_entry({ text: "nowhere" })');
        expect(done).toMatchObject({
          status: 'failed',
          error: {
            code: 'upstream_unavailable',
            message: expect.stringMatching(/\(the call was not sent\)$/),
          },
        });
        // The guest's ToolError says it may be tried again: nothing reached the server.
        const caught = await l.approved(
          'try { return await ledger.add_entry({ text: "nowhere" }) } catch (e) { return { code: e.code, retryable: e.retryable } }',
        );
        expect(caught).toMatchObject({
          status: 'completed',
          result: { code: 'upstream_unavailable', retryable: true },
        });
        expect(l.server.calls).toEqual([]);
      },
      false,
    );
  });
}

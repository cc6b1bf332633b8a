/**
 * Hostile sources (issue #20), what a source answers: results too large, too deep, garbled, late
 * or not results at all, notifications without end, and its own credential echoed back in every
 * encoding. Set up as in hostile-sources.test.ts (test/fixtures/servers/hostile-upstream.ts, one
 * mode each, added through the CLI and used through `hub serve --stdio` and the official client).
 * Whatever it does, the hub stays up and answers the next normal request.
 *
 * | Hostile upstream           | What it does                                                     | Held                                                    |
 * | -------------------------- | ---------------------------------------------------------------- | ------------------------------------------------------- |
 * | 50 MB result               | `big` answers 50 MB                                              | `result_too_large` naming the cap                        |
 * | binary garbage             | 64 KB of bytes and JSON log lines on stdout, then the answer     | lines that are not messages dropped; the answer arrives  |
 * | a stack-deep result        | JSON text nested 100,000 deep                                    | the call fails (stack exceeded, `internal`); the hub serves on |
 * | no tool result             | answers tools/call with `42`                                     | the one call waiting fails at once, saying so; the hub serves on |
 * | answers after the timeout  | `slow` answers 35 s later, past the 30 s call timeout            | `outcome_unknown` (sent, never sent again), "did not answer in time"; the late answer is dropped |
 * | breaks its output schema   | a write's structured content is not what its schema declares     | the write is made once and reported made, with a notice; a resume sends nothing |
 * | `list_changed` in a loop   | notifications/tools/list_changed as fast as the pipe takes them  | no refresh per notification (tools/list: once per run)  |
 * | echoes its credential      | raw, base64, base64url, URL, hex (both cases), in HTTP Basic, split in halves joined by code, in an error result and a JSON-RPC error | never in any answer (execute, search, describe, `runs show`) |
 * | echoes it `\u`-escaped     | every character as a JSON `\u` escape, inside a string           | never in any answer (the scrubber undoes escapes first)    |
 * | echoes it reversed         | the credential backwards                                         | known gap: no scrubber can know every encoding          |
 *
 * Also held by: test/node/sources-hostile.test.ts (a result claiming an HTTP answer),
 * test/node/secrets-everywhere.test.ts (a leaky server's token in stderr, names and
 * declarations), test/invariants/i1-secrets.test.ts (every channel × every encoding).
 */
import { describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { encodings } from '../fixtures/hostile-upstream-words.ts';
import { cli } from '../node/cli-process.ts';
import { textOf } from '../node/surface-fixture.ts';
import {
  added,
  countOf,
  execute,
  holds,
  hostileHubs,
  seenOfEcho,
  stillServes,
  TIMEOUT,
  TOKEN,
  until,
} from './hostile-kit.ts';

const hostile = hostileHubs();

describe('Hostile sources: what it sends', () => {
  it(
    'a 50 MB result is refused with its cap, and the hub goes on serving',
    async () => {
      const h = hostile('large');
      added(h);
      const client = await h.serve();
      const { envelope } = await execute(client, 'return (await hostile.big({})).length');
      expect(envelope).toMatchObject({
        status: 'failed',
        error: { code: 'result_too_large', message: expect.stringMatching(/over the 16777216-byte cap/) },
      });
      await stillServes(client);
    },
    TIMEOUT,
  );

  it(
    'binary garbage on stdout is dropped; the answer after it arrives',
    async () => {
      const h = hostile('garbage');
      added(h);
      const client = await h.serve();
      const { envelope } = await execute(client, 'return await hostile.garble({})');
      expect(envelope).toMatchObject({ status: 'completed', result: 'done' });
      await stillServes(client);
    },
    TIMEOUT,
  );

  it(
    'a result nested 100,000 deep fails the call, and the hub goes on serving',
    async () => {
      const h = hostile('garbage');
      added(h);
      const client = await h.serve();
      const { envelope } = await execute(client, 'return typeof (await hostile.nest({}))');
      expect(envelope).toMatchObject({
        status: 'failed',
        calls: [{ address: 'hostile.nest', ok: false }],
        error: { message: expect.stringMatching(/Maximum call stack size exceeded/) },
      });
      await stillServes(client);
    },
    TIMEOUT,
  );

  it(
    'an answer that is not a tool result fails the call at once, saying so',
    async () => {
      const h = hostile('garbage');
      added(h);
      const client = await h.serve();
      const { envelope } = await execute(client, 'return await hostile.mangle({})');
      expect(envelope).toMatchObject({ status: 'failed', calls: [{ address: 'hostile.mangle', ok: false }] });
      expect(envelope.error?.message).toMatch(/answered with a message that is not valid MCP/);
      expect(envelope.error?.message).not.toMatch(/did not answer in time/);
      await stillServes(client);
    },
    TIMEOUT,
  );

  it(
    'a server that answers after the timeout fails the call clearly; its late answer is dropped',
    async () => {
      const h = hostile('slow');
      added(h);
      const client = await h.serve();
      const { envelope } = await execute(client, 'return await hostile.slow({})');
      expect(envelope).toMatchObject({
        status: 'failed',
        // It was sent: whether it happened is unknown, never "not sent" (issue #38).
        error: {
          code: 'outcome_unknown',
          message: expect.stringMatching(
            /did not answer in time.*\(the call was sent; whether it happened is unknown\)/,
          ),
        },
      });
      await until(() => h.counted().includes('late'), 'the late answer');
      await stillServes(client);
    },
    TIMEOUT,
  );

  it(
    'a write whose answer breaks its output schema is made once and reported made; a resume sends nothing',
    async () => {
      const h = hostile('drift');
      added(h);
      const client = await h.serve();
      const { envelope: asked } = await execute(client, 'return await hostile.add_entry({ text: "hello" })');
      expect(asked.status).toBe('awaiting_approval');
      const approved = cli(h.home, ['--json', 'hub', 'approve', asked.runId, '--choice', 'once']);
      expect(approved.status, approved.stderr).toBe(0);
      const resumed = await client.callTool({ name: 'execute', arguments: { resume: asked.runId } });
      const done = resumed.structuredContent as ExecuteEnvelope;
      expect(done).toMatchObject({
        status: 'completed',
        result: { id: 'entry-1', text: 'hello' },
        calls: [{ address: 'hostile.add_entry', ok: true }],
        notices: [
          expect.stringMatching(
            /^hostile\.add_entry answered with structured content that does not match its declared output schema/,
          ),
        ],
      });
      expect(countOf(h.counted(), 'call add_entry')).toBe(1);
      // `describe` keeps the type the tool declares.
      const described = textOf(
        await client.callTool({ name: 'describe', arguments: { targets: ['hostile.add_entry'] } }),
      );
      expect(described).toMatch(/id: number/);
      await stillServes(client);
    },
    TIMEOUT,
  );

  it(
    'list_changed in a loop refreshes nothing per notification, and the hub goes on serving',
    async () => {
      const h = hostile('list-changed');
      added(h);
      const client = await h.serve();
      const listsAtAdd = countOf(h.counted(), 'list');
      // The first call starts the session: the flood begins.
      expect((await execute(client, 'return await hostile.ordinary({})')).envelope.status).toBe('completed');
      await until(() => h.spammed() >= 20_000, '20,000 list_changed notifications');
      await stillServes(client);
      await until(() => h.spammed() >= 40_000, '40,000 list_changed notifications');
      await stillServes(client);
      // Three runs, each listing the source once before its first call (contract-recheck.ts);
      // 40,000 notifications add none.
      expect(countOf(h.counted(), 'list') - listsAtAdd).toBeLessThanOrEqual(3 + 1);
    },
    TIMEOUT,
  );
});

/** Everything seen of the echoing source, on a hub closed after the test. */
async function echoed(): Promise<string> {
  const h = hostile('echo');
  added(h);
  return seenOfEcho(h, TOKEN);
}

describe('Hostile sources: its credential', () => {
  it(
    'echoed raw, base64, base64url, URL, hex, in HTTP Basic, in halves, in errors: never in any answer',
    async () => {
      const seen = await echoed();
      const forms = encodings(TOKEN);
      for (const name of ['raw', 'base64', 'base64url', 'url', 'hex', 'HEX', 'basic'] as const) {
        expect(holds(seen, forms[name]), name).toBe(false);
      }
      expect(holds(seen, TOKEN.slice(4))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'echoed as JSON \\u escapes: never in any answer',
    async () => {
      expect(holds(await echoed(), encodings(TOKEN).jsonEscaped)).toBe(false);
    },
    TIMEOUT,
  );

  // Known gap: a source that holds the credential can always send it in an encoding no scrubber
  // knows (reversed, rot13, one character per call). The scrubber covers the encodings an API
  // echoes by accident; a source that leaks on purpose is stopped only by not adding it.
  it.fails(
    'echoed reversed: never in any answer',
    async () => {
      expect(holds(await echoed(), encodings(TOKEN).reversed)).toBe(false);
    },
    TIMEOUT,
  );
});

/**
 * I3 on the hosted hub, "Authority never widens: a changed contract, a new tool or an annotation
 * flipped to read-only asks again; a narrower rule never loosens a deny": the companion of
 * test/invariants/i3-authority.test.ts in workerd, against the Worker's own fetch. Each test is a
 * person of their own (signed in, holding an MCP token through the real OAuth flow), whose hub
 * holds the counting board of a fresh upstream room (test/workers/upstream.ts, answered in Node,
 * so what reached it is counted outside workerd), reviewed as the hub proposes (`post` asks). The
 * person answers `always` for `post` on the run's page, and the next run posts without asking.
 * Then the upstream changes, and nobody refreshes: the hosted hub lists a source before a run's
 * first call to it is decided (engine/sources/contract-recheck.ts).
 *
 * | Way in                     | Attack                                                        | Held                 |
 * | -------------------------- | ------------------------------------------------------------- | -------------------- |
 * | page `always`, MCP execute | `post`'s description changes upstream                         | asks; no post        |
 * | page `always`, MCP execute | `post` now declares `readOnlyHint: true`                      | asks; no post        |
 * | page `always`, MCP execute | a new tool that says it only reads appears beside `post`      | not a tool, then asks; never called |
 * | store rule, MCP execute    | a deny on the source beside a narrower allow on `post`        | denied; no post      |
 * | page `always`, MCP execute | the change lands between two runs of one open MCP session     | asks; no post        |
 *
 * Not on this host: `hub refresh`, `hub import` and a stdio upstream (the hosted hub runs none).
 * Also held by: test/workers/hub-push.test.ts (a push plan that changed after it was shown is
 * refused), test/invariants/i8-configuration.workers.test.ts (no MCP path writes a rule), and
 * the local file's "Also held by".
 */
import { runInDurableObject } from 'cloudflare:test';
import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { call, mcpClient, ORIGIN, tokenFor } from '../workers/oauth-flow.ts';
import { hubOf, signedIn } from '../workers/people.ts';
import { type UpstreamRoom, upstreamRoom } from '../workers/upstream.ts';

let next = 130_000;

interface Person {
  person: string;
  client: Client;
  browser: { cookie: string; csrf: string };
  room: UpstreamRoom;
}

/** A person whose hub holds the room's board, reviewed as proposed, and an MCP client of theirs. */
async function personWithBoard(): Promise<Person> {
  next += 1;
  const id = next;
  const login = `authority${id}`;
  const person = `github:${id}`;
  const room = upstreamRoom('i3');
  await runInDurableObject(hubOf(person), async (hub: HubObject) => {
    const inspection = await hub.engine.sources.inspect({ kind: 'mcp-http', url: room.mcpUrl }, 'board');
    hub.engine.sources.addSource(inspection, new Map(inspection.review.map((i) => [i.address, i.proposed])));
  });
  const token = await tokenFor(id, login);
  return { person, client: await mcpClient(token.access), browser: await signedIn(id, login), room };
}

async function execute(
  client: Client,
  args: { code: string } | { resume: string },
): Promise<ExecuteEnvelope> {
  const result = await client.callTool({ name: 'execute', arguments: args });
  return result.structuredContent as ExecuteEnvelope;
}

/** The person answers `always` for the pending `post` of `run` on its page, as a browser would. */
async function always(who: Person, run: ExecuteEnvelope): Promise<void> {
  const pendingId = run.pending?.[0]?.id ?? '';
  const decided = await call(`/runs/${run.runId}/decide`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: who.browser.cookie,
      origin: ORIGIN,
    },
    body: new URLSearchParams({ pendingId, choice: 'always', csrf: who.browser.csrf }),
  });
  expect(decided.status, await decided.clone().text()).toBeLessThan(400);
}

/** `always` for `post`: the asked run goes on once decided, and the next run posts without asking. */
async function alwaysForPost(who: Person): Promise<void> {
  const asked = await execute(who.client, { code: 'return await board.post({ text: "one" });' });
  expect(asked.status).toBe('awaiting_approval');
  await always(who, asked);
  expect((await execute(who.client, { resume: asked.runId })).status).toBe('completed');
  const second = await execute(who.client, { code: 'return await board.post({ text: "two" });' });
  expect(second.status, JSON.stringify(second)).toBe('completed');
  expect(await who.room.posts()).toEqual(['post one', 'post two']);
}

const postThree = (who: Person) =>
  execute(who.client, { code: 'return await board.post({ text: "three" });' });

describe('I3 on the hosted hub: authority never widens', () => {
  it('attack: `always` was given; the description changes upstream; the next call asks', async () => {
    const who = await personWithBoard();
    await alwaysForPost(who);
    await who.room.change({ postDescription: 'Post a message to the board, and to everyone.' });
    expect((await postThree(who)).status).toBe('awaiting_approval');
    expect(await who.room.posts()).toEqual(['post one', 'post two']);
  });

  it('attack: `always` was given; the tool now declares itself read-only; the call still asks', async () => {
    const who = await personWithBoard();
    await alwaysForPost(who);
    await who.room.change({ postAnnotations: { readOnlyHint: true } });
    expect((await postThree(who)).status).toBe('awaiting_approval');
    expect(await who.room.posts()).toEqual(['post one', 'post two']);
  });

  it('attack: a new tool that says it only reads appears beside an allowed tool; it asks', async () => {
    const who = await personWithBoard();
    await alwaysForPost(who);
    await who.room.change({ newTool: true });
    // Not in the store when the run starts: not a tool to its code at all.
    const unknown = await execute(who.client, { code: 'return await board.wipe({});' });
    expect(unknown.error?.message).toContain('board.wipe is not a tool');
    // A run that reads lists the source first, so the next run sees `wipe`, unreviewed.
    expect((await execute(who.client, { code: 'return await board.list_posts({});' })).status).toBe(
      'completed',
    );
    const wiped = await execute(who.client, { code: 'return await board.wipe({});' });
    expect(wiped.status, JSON.stringify(wiped)).toBe('awaiting_approval');
    expect(await who.room.calls()).not.toContain('wipe');
    // The `always` the person gave for `post` still holds, and only for `post`.
    expect((await postThree(who)).status).toBe('completed');
    expect(await who.room.posts()).toEqual(['post one', 'post two', 'post three']);
  });

  it('attack: a deny on the source beside a narrower allow on one of its tools; the deny holds', async () => {
    const who = await personWithBoard();
    await alwaysForPost(who);
    await runInDurableObject(hubOf(who.person), async (hub: HubObject) => {
      hub.store.addPolicyRule({
        id: 'rule_tool_allow',
        target: { kind: 'tool', address: 'board.post' },
        effect: 'allow',
        createdAt: 1,
      });
      hub.store.addPolicyRule({
        id: 'rule_source_deny',
        target: { kind: 'source', namespace: 'board' },
        effect: 'deny',
        createdAt: 2,
      });
    });
    const denied = await execute(who.client, {
      code: 'try { await board.post({ text: "three" }); return "posted"; } catch (error) { return error.code; }',
    });
    expect(denied.status).toBe('completed');
    expect(denied.result).not.toBe('posted');
    expect(await who.room.posts()).toEqual(['post one', 'post two']);
  });

  it('attack: the upstream changes between two runs of one open MCP session; the call asks', async () => {
    const who = await personWithBoard();
    await alwaysForPost(who);
    // The same client and session as the runs that posted: the server says nothing of its change.
    await who.room.change({ postDescription: 'Post a message, and delete the board after.' });
    const third = await postThree(who);
    expect(third.status).toBe('awaiting_approval');
    expect(third.pending?.[0]?.address).toBe('board.post');
    expect(await who.room.posts()).toEqual(['post one', 'post two']);
  });
});

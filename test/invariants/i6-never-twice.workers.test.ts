/**
 * I6 (test/invariants/i6-never-twice.suite.ts) on the hosted hub, "Resume never repeats a call",
 * and the attacks only this host has: the companion of test/invariants/i6-kills.test.ts in workerd.
 *
 * Each attack has its own person (a fresh GitHub id): an MCP token through the real OAuth flow and
 * the official SDK client on /mcp (test/workers/oauth-flow.ts), and a signed-in browser on the
 * dashboard's decide route (test/workers/people.ts). Their hub holds one reviewed source, `board`,
 * a room of the upstream stand-in (test/workers/upstream.ts) listed as the room lists itself; the
 * room counts every post in Node, so the count survives the Durable Object. The hosted "kill" is
 * `state.abort()` on the person's HubObject inside cloudflare:test's `runInDurableObject`: the
 * instance and its memory are dropped, durable storage stays, the next request builds a new one.
 *
 * | Way in | Attack | Held |
 * | ------ | ------ | ---- |
 * | /mcp, object aborted, dashboard decide, /mcp resume | the hub object aborted while the run awaits a person; the person approves; the run is resumed | one post, completed |
 * | /mcp resume, object aborted mid-call | `slow_post` held in the room, the object aborted; the room released; the run resumed | at most one post; completed or failed `outcome_unknown` |
 * | /mcp resume ×2 at once | two concurrent `execute({ resume })` of an approved run | one post; the other told `running` |
 * | the suite's | replayed decisions, the same code twice, approvals racing on the decide route, a run of two writes | as the suite says |
 *
 * In the mid-call attack the room finishes the held post once released (it does not know the hub
 * died), and the resumed run ends failed `outcome_unknown` ("the hub stopped while board.slow_post
 * was in flight; … it is never sent twice"), so it is not sent again. workerd logs each abort as an uncaught exception; that
 * is the abort itself, not a failure.
 *
 * Not reachable on the hosted hub without product hooks: an abort after the upstream answered but
 * before the outcome is written (the local kills file reaches it by watching the board's file from
 * another process; inside workerd the answer and the journal write happen in one turn of the
 * object, with no point between them a test can stop). Not on the hosted hub: a CLI process.
 *
 * Also held by: test/workers/runs.test.ts (the engine's run conformance suite on the HubObject),
 * test/workers/hub-alarm.test.ts (expiry of undecided runs), test/workers/dashboard-runs.test.ts
 * (the inbox and its decide forms), test/invariants/i2-decisions.workers.test.ts (only the
 * person's form decides).
 */
import { runInDurableObject } from 'cloudflare:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import type { ListedTool } from '../../engine/manifest.ts';
import { call, envelope, mcpClient, ORIGIN, tokenFor } from '../workers/oauth-flow.ts';
import { decisionsOf, hubOf, reviewedSource, signedIn } from '../workers/people.ts';
import { type UpstreamRoom, upstreamRoom } from '../workers/upstream.ts';
import { describeNeverTwice, type NeverTwiceBoard } from './i6-never-twice.suite.ts';

let next = 160_000;

/** The tools the room lists, as a source's manifest records them. */
async function listed(room: UpstreamRoom): Promise<ListedTool[]> {
  const client = new Client({ name: 'i6-lister', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(room.mcpUrl)));
  try {
    return (await client.listTools()).tools as unknown as ListedTool[];
  } finally {
    await client.close();
  }
}

/** A fresh person with the room as their reviewed `board`, an MCP client and a signed-in browser. */
async function person(label: string) {
  next += 1;
  const id = next;
  const hub = `github:${id}`;
  const room = upstreamRoom(`i6-${label}`);
  await reviewedSource(hub, 'board', room.mcpUrl, await listed(room));
  const token = await tokenFor(id, `i6w${id}`);
  const browser = await signedIn(id, `i6w${id}`);
  const client = await mcpClient(token.access);
  const execute = async (args: Record<string, unknown>) =>
    (envelope(await client.callTool({ name: 'execute', arguments: args })) ?? {}) as {
      runId?: string;
      status?: string;
      result?: unknown;
      error?: { code?: string };
    };
  const decide = (runId: string, pendingId: string, choice = 'once') =>
    call(`/runs/${runId}/decide`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: browser.cookie,
        origin: ORIGIN,
      },
      body: new URLSearchParams({ csrf: browser.csrf, pendingId, choice }),
    });
  /** Starts `code`, which asks; returns the waiting run's id and its pending id. */
  const asked = async (code: string) => {
    const started = await execute({ code });
    expect(started.status).toBe('awaiting_approval');
    const runId = started.runId ?? '';
    const pendingId = await runInDurableObject(
      hubOf(hub),
      async (object: HubObject) => object.store.listPendingInputs(runId)[0]?.id ?? '',
    );
    return { runId, pendingId };
  };
  /** The run's latest asked call: the one a person answers, or re-answers once it is decided. */
  const latestPending = (runId: string) =>
    runInDurableObject(
      hubOf(hub),
      async (object: HubObject) => object.store.listPendingInputs(runId).at(-1)?.id ?? '',
    );
  const runOf = (runId: string) =>
    runInDurableObject(hubOf(hub), async (object: HubObject) => object.store.getRun(runId));
  return { hub, room, client, execute, decide, asked, latestPending, runOf, abort: () => abort(hub) };
}

/** Resolves once `seen` holds (the room is read in Node; a short pause between reads). */
async function until(seen: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    if (await seen()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the room never saw the call start');
}

/** Aborts `hub`'s HubObject: its instance and memory are gone, its storage stays. */
async function abort(hub: string): Promise<void> {
  await runInDurableObject(hubOf(hub), (_object: HubObject, state) => {
    state.abort('i6: the hub object is killed');
  }).catch(() => undefined);
}

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** The suite's board: the person decides on the decide route, the agent resumes over /mcp. */
async function hostedBoard(label: string): Promise<NeverTwiceBoard> {
  const p = await person(label);
  clients.push(p.client);
  return {
    execute: async (code) => {
      const started = await p.execute({ code });
      return { runId: started.runId ?? '', status: started.status ?? '' };
    },
    approve: async (runId, choice = 'once') => {
      const decided = await p.decide(runId, await p.latestPending(runId), choice);
      if (decided.status >= 400) return { refused: true, said: await decided.text() };
      expect(decided.status).toBe(303);
      const resumed = await p.execute({ resume: runId });
      return { refused: false, status: resumed.status ?? '', result: resumed.result };
    },
    // Two forms at once, once and always: one decides (303); the run then goes on once.
    approveRacing: async (runId) => {
      const pendingId = await p.latestPending(runId);
      const answers = await Promise.all([p.decide(runId, pendingId), p.decide(runId, pendingId, 'always')]);
      expect(answers.map((answer) => answer.status)).toContain(303);
      expect((await p.execute({ resume: runId })).status).toBe('completed');
    },
    decisions: async (runId) => (await decisionsOf(p.hub, runId)).length,
    posts: () => p.room.posts(),
  };
}

describeNeverTwice({ name: 'hosted', board: hostedBoard });

describe('I6 on the hosted hub: an aborted hub object and racing resumes never repeat a call', () => {
  it('the hub object aborted while the run awaits a person: approved on the dashboard, one post', async () => {
    const p = await person('await');
    try {
      const { runId, pendingId } = await p.asked('return await board.post({ text: "held" });');
      await p.abort();
      const decided = await p.decide(runId, pendingId);
      expect(decided.status).toBe(303);
      const resumed = await p.execute({ resume: runId });
      expect(resumed.status).toBe('completed');
      expect(await p.room.posts()).toEqual(['post held']);
      expect((await p.execute({ resume: runId })).status).toBe('completed');
      expect(await p.room.posts()).toEqual(['post held']);
    } finally {
      await p.client.close();
    }
  }, 60_000);

  it('the hub object aborted mid-call, the room released, the run resumed: at most one post', async () => {
    const p = await person('mid-call');
    try {
      const code = 'const answer = await board.slow_post({ text: "mid" }); return answer;';
      const { runId, pendingId } = await p.asked(code);
      expect((await p.decide(runId, pendingId)).status).toBe(303);
      const first = p.execute({ resume: runId }).catch((error: unknown) => ({ status: String(error) }));
      await until(async () => (await p.room.calls()).includes('started mid'));
      await p.abort();
      await p.room.release();
      await first;
      let after = await p.execute({ resume: runId });
      for (let tries = 0; tries < 50 && !['completed', 'failed'].includes(after.status ?? ''); tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        after = await p.execute({ resume: runId });
      }
      if (after.status === 'failed') expect(after.error?.code).toBe('outcome_unknown');
      else expect(after.status).toBe('completed');
      expect((await p.execute({ resume: runId })).status).toBe(after.status);
      expect((await p.room.posts()).length).toBeLessThanOrEqual(1);
      expect((await p.room.calls()).filter((line) => line.startsWith('started'))).toEqual(['started mid']);
    } finally {
      await p.client.close();
    }
  }, 60_000);

  it('two concurrent resumes of an approved run: one post', async () => {
    const p = await person('race-resume');
    try {
      const { runId, pendingId } = await p.asked('return await board.post({ text: "raced" });');
      expect((await p.decide(runId, pendingId)).status).toBe(303);
      const both = await Promise.all([p.execute({ resume: runId }), p.execute({ resume: runId })]);
      // One makes the call; the other is told the run is running (retry later), or, if it came
      // after, reads the result: never a second call.
      const statuses = both.map((answer) => answer.status ?? '').sort();
      expect(statuses[0]).toBe('completed');
      expect(['completed', 'running']).toContain(statuses[1]);
      expect((await p.execute({ resume: runId })).status).toBe('completed');
      expect(await p.room.posts()).toEqual(['post raced']);
    } finally {
      await p.client.close();
    }
  }, 60_000);
});

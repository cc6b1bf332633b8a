/**
 * I3 (test/invariants/i3-authority.suite.ts) on the hosted hub, against the Worker's own fetch in
 * workerd. Each attack is a person of their own (signed in, holding an MCP token through the real
 * OAuth flow), whose hub holds the counting board of a fresh upstream room
 * (test/workers/upstream.ts, answered in Node, so what reached it is counted outside workerd),
 * reviewed as the hub proposes (`post` asks). The person answers `always` for `post` on the run's
 * page and the agent resumes the run. Nobody refreshes: the hosted hub lists a source before a
 * run's first call to it is decided (engine/sources/contract-recheck.ts).
 *
 * Not on this host: `hub refresh`, `hub import` and a stdio upstream (the hosted hub runs none).
 * Also held by: test/workers/hub-push.test.ts (a push plan that changed after it was shown is
 * refused), test/invariants/i8-configuration.workers.test.ts (no MCP path writes a rule), and
 * the local runner's "Also held by".
 */
import { runInDurableObject } from 'cloudflare:test';
import { expect } from 'vitest';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { call, mcpClient, ORIGIN, tokenFor } from '../workers/oauth-flow.ts';
import { hubOf, signedIn } from '../workers/people.ts';
import { upstreamRoom } from '../workers/upstream.ts';
import { type AuthorityBoard, describeAuthority } from './i3-authority.suite.ts';

let next = 130_000;

/** A person whose hub holds the room's board, reviewed as proposed, and an MCP client of theirs. */
async function hostedBoard(): Promise<AuthorityBoard> {
  next += 1;
  const id = next;
  const login = `authority${id}`;
  const person = `github:${id}`;
  const room = upstreamRoom('i3');
  await runInDurableObject(hubOf(person), async (hub: HubObject) => {
    const inspection = await hub.engine.sources.inspect({ kind: 'mcp-http', url: room.mcpUrl }, 'board');
    hub.engine.sources.addSource(inspection, new Map(inspection.review.map((i) => [i.address, i.proposed])));
  });
  const client = await mcpClient((await tokenFor(id, login)).access);
  const browser = await signedIn(id, login);
  const execute = async (args: { code: string } | { resume: string }) =>
    (await client.callTool({ name: 'execute', arguments: args })).structuredContent as ExecuteEnvelope;
  return {
    execute: (code) => execute({ code }),
    // On the run's page, as a browser would; then the agent resumes the run.
    always: async (run) => {
      const pendingId = run.pending?.[0]?.id ?? '';
      const decided = await call(`/runs/${run.runId}/decide`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: browser.cookie,
          origin: ORIGIN,
        },
        body: new URLSearchParams({ pendingId, choice: 'always', csrf: browser.csrf }),
      });
      expect(decided.status, await decided.clone().text()).toBeLessThan(400);
      expect((await execute({ resume: run.runId })).status).toBe('completed');
    },
    change: (change) => room.change(change),
    addRules: async (rules) => {
      await runInDurableObject(hubOf(person), async (hub: HubObject) => {
        for (const rule of rules) hub.store.addPolicyRule(rule);
      });
    },
    calls: () => room.calls(),
  };
}

describeAuthority({ name: 'hosted', board: hostedBoard });

/**
 * I2 (test/invariants/i2-decisions.suite.ts) on the hosted hub, "Only a person records a
 * decision; no MCP-reachable path records one", against the Worker's own fetch in workerd. One
 * person, signed in (session cookie and CSRF token) and holding an MCP token through
 * the real OAuth flow (test/workers/oauth-flow.ts), with a run of their own hub waiting on one
 * call (test/workers/people.ts). Each `it` is one attack by something that is not the person's
 * signed-in browser; after each, the run still waits and no decision is recorded:
 *
 * | Way in          | Attack                                                                  | Held                         |
 * | --------------- | ----------------------------------------------------------------------- | ---------------------------- |
 * | the suite's     | the surface, decision-shaped and malformed arguments, the guest's `hub`, a forged or tampered requestState | as the suite says |
 * | Dashboard       | the person's own OAuth MCP token on the run's page and its decide route | sign in first; nothing       |
 * | Dashboard       | the self-hosting HUB_TOKEN (a personal access token) on the decide route | sign in first; nothing      |
 * | Dashboard       | the person's session without the CSRF token, with another, from a foreign Origin | 403; nothing        |
 * | Dashboard (control) | the person's session, CSRF token and Origin                         | one decision                 |
 *
 * The foreign Origin, with the session and its right CSRF token, was recorded until worker/index.ts
 * refused a dashboard write from another origin (as the local pages do); the SameSite=Lax cookie
 * and the token unreadable cross-origin kept it out of a real browser's reach, so it was defence in
 * depth, now held here.
 *
 * Also held by: test/workers/mcp-prompt.test.ts (the hosted prompt: tampered, replayed, expired
 * states), test/invariants/i5-tenants.workers.test.ts (another person's state, page, token and
 * cookie), test/workers/dashboard-runs.test.ts and test/workers/hosted-dashboard.test.ts (the
 * inbox and its forms).
 */

import { runInDurableObject } from 'cloudflare:test';
import {
  type Client,
  type JSONRPCMessage,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import { call, mcpClient, ORIGIN, RESOURCE, tokenFor } from '../workers/oauth-flow.ts';
import { decisionsOf, hubOf, signedIn, waitingRun } from '../workers/people.ts';
import { WORKERS_TEST_TOKEN } from '../workers/token.ts';
import { worker } from '../workers/worker-client.ts';
import { type CallParams, describeDecisions, type PromptingClient } from './i2-decisions.suite.ts';
import { elicitingClient } from './invariant-hub.ts';

let next = 120_000;

/** A signed-in person with an MCP token, and a run of their hub waiting on `board.post`. */
async function personWaiting() {
  next += 1;
  const id = next;
  const login = `decider${id}`;
  const person = `github:${id}`;
  const token = await tokenFor(id, login);
  const browser = await signedIn(id, login);
  const runId = `run_i2_${id}`;
  await waitingRun(person, runId);
  return { person, token, browser, runId, pendingId: `${runId}_p0` };
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const decide = (runId: string, headers: Record<string, string>, form: Record<string, string>) =>
  call(`/runs/${runId}/decide`, {
    method: 'POST',
    headers: { ...FORM, ...headers },
    body: new URLSearchParams(form),
  });

/** The suite's person: one signed-in person whose agent attacks runs of their own hub. */
let suitePerson: Awaited<ReturnType<typeof personWaiting>>;
const clients: Client[] = [];
let agent: Client;

beforeAll(async () => {
  suitePerson = await personWaiting();
  agent = await mcpClient(suitePerson.token.access);
  clients.push(agent);
});

afterAll(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A 2026-07-28 client with form elicitation, its person answering `once`, its wire rewritten. */
async function promptingClient(rewrite: (params: CallParams) => void): Promise<PromptingClient> {
  const { client, asked } = elicitingClient('once');
  const transport = new StreamableHTTPClientTransport(new URL(RESOURCE), {
    requestInit: { headers: { authorization: `Bearer ${suitePerson.token.access}` } },
    fetch: (input, init) => worker.fetch(new Request(input, init)),
  });
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options) => {
    if ('method' in message && message.method === 'tools/call' && message.params) rewrite(message.params);
    return send(message, options);
  };
  await client.connect(transport);
  clients.push(client);
  return { client, asked };
}

describeDecisions({
  name: 'hosted',
  clients: () => [agent],
  waitingRun: async (label) => {
    const { person } = suitePerson;
    const runId = `run_i2_${label.replaceAll('-', '_')}`;
    await waitingRun(person, runId);
    return { runId, pendingId: `${runId}_p0` };
  },
  untouched: async (runId) => {
    const { person } = suitePerson;
    expect(await decisionsOf(person, runId)).toEqual([]);
    const status = await runInDurableObject(
      hubOf(person),
      async (hub: HubObject) => hub.store.getRun(runId)?.status,
    );
    expect(status).toBe('awaiting_input');
  },
  promptingClient,
});

describe('I2 on the hosted hub: only the signed-in person’s own form on the dashboard records a decision', () => {
  it('Dashboard: the person’s own MCP token and the HUB_TOKEN are not a signed-in browser', async () => {
    const { person, token, runId, pendingId } = await personWaiting();
    for (const bearer of [token.access, WORKERS_TEST_TOKEN]) {
      const authorization = `Bearer ${bearer}`;
      const page = await call(`/runs/${runId}`, { headers: { authorization }, redirect: 'manual' });
      expect(page.status).toBe(302);
      expect(page.headers.get('location')).toMatch(/^\/login\?next=/);
      const refused = await decide(runId, { authorization, origin: ORIGIN }, { pendingId, choice: 'always' });
      expect([302, 401, 403]).toContain(refused.status);
    }
    expect(await decisionsOf(person, runId)).toEqual([]);
  });

  it('Dashboard: the session without its CSRF token, with another’s, or from a foreign Origin is refused', async () => {
    const { person, browser, runId, pendingId } = await personWaiting();
    const other = await signedIn(next + 500, 'someone-else');
    const { cookie, csrf } = browser;
    expect(
      (await decide(runId, { cookie, origin: ORIGIN }, { pendingId, choice: 'once' })).status,
      'no csrf',
    ).toBe(403);
    expect(
      (await decide(runId, { cookie, origin: ORIGIN }, { pendingId, choice: 'once', csrf: other.csrf }))
        .status,
      'other csrf',
    ).toBe(403);
    const foreign = await decide(
      runId,
      { cookie, origin: 'https://evil.example' },
      { pendingId, choice: 'once', csrf },
    );
    expect(foreign.status, 'foreign origin').toBe(403);
    const opaque = await decide(runId, { cookie, origin: 'null' }, { pendingId, choice: 'once', csrf });
    expect(opaque.status, 'opaque origin').toBe(403);
    expect(await decisionsOf(person, runId)).toEqual([]);

    // Control: the person's own form, whole, records exactly one decision.
    const ok = await decide(runId, { cookie, origin: ORIGIN }, { pendingId, choice: 'once', csrf });
    expect(ok.status).toBe(303);
    expect((await decisionsOf(person, runId)).map((d) => d.choice)).toEqual(['once']);
  });
});

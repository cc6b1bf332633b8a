/**
 * I2 (test/invariants/i2-decisions.suite.ts) on a local hub, "Only a person records a decision; no
 * MCP-reachable path records one" (spec: Security and approvals). A decision comes only from host code
 * handling a person's input: the client's own prompt (with the state the hub signed for that pending call,
 * bound to the run, the call and a nonce, once), the approval page (one-time link, page session, CSRF token,
 * Host and Origin checks), `capabilities hub approve` in a terminal, and the hosted dashboard behind a
 * login.
 *
 * One local hub (the counting board added through the CLI, `hub serve --http` beside `serve
 * --stdio`) and official MCP clients. Each `it` is one attack; after each, the run still waits,
 * the store holds no decision on it, and the board saw no post:
 *
 * | Way in          | Attack                                                                      | Held                        |
 * | --------------- | --------------------------------------------------------------------------- | --------------------------- |
 * | the suite's     | the surface, decision-shaped and malformed arguments, the guest's `hub`, a forged or tampered requestState, over stdio and HTTP | as the suite says |
 * | MCP prompt      | a state answered once, replayed for another run                             | -32602; nothing recorded    |
 * | MCP prompt      | run A's valid state carrying an answer for run B's call (cross-run)         | refused; neither decided    |
 * | MCP prompt      | a valid state answered after its request expired                            | refused; nothing recorded   |
 * | Page            | GET the run's page and POST its decide form with no session                 | 401; nothing recorded       |
 * | Page            | the MCP bearer token (serve --http's) on the page and its decide route      | not a session; nothing      |
 * | Page            | the one-time link used a second time                                        | 410                         |
 * | Page            | a session's form without its CSRF token, or from a foreign Origin           | 403; nothing recorded       |
 * | Page            | a rebinding Host on the page and the decide route                           | 403; nothing recorded       |
 * | Page            | the session run A's link opened, deciding run B's call                      | 403; nothing recorded       |
 * | CLI             | `hub approve` piped (no terminal, no --choice), naming a pending id, after expiry | refused; nothing  |
 * | Page (control)  | the person's own form, whole                                                | one decision, `approval page`|
 * | Import graph    | the guest's road (prelude, sandbox, QuickJS host, Worker Loader guest) to the recording modules | none reached |
 *
 * Also held by: test/person-input.test.ts (exactly one module calls `recordDecision`; the local
 * MCP surface reaches neither it nor the client prompt), test/engine/client-prompt.test.ts (forged,
 * tampered, replayed, expired states, unit), test/node/surface-prompt.test.ts and
 * test/node/surface-*.test.ts (the prompt end to end; the surface's arguments),
 * test/workers/mcp-prompt.test.ts (the hosted prompt), test/node/page-access.test.ts (one-time
 * links and sessions across processes), test/e2e/approval-page.test.ts (the page in a real
 * browser: CSRF, Origin, Host, frames), test/node/cli-approve.test.ts (the terminal's approve),
 * test/architecture.test.ts (the import graph's checker), test/invariants/i5-tenants.workers.test.ts
 * (another person's state, page and token on the hosted hub), and
 * test/invariants/i2-decisions.workers.test.ts (the hosted runner).
 */
import { request as httpRequest } from 'node:http';
import { resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkImportGraph, sourceFiles } from '../import-graph.ts';
import { cli } from '../node/cli-process.ts';
import { stdioClient } from '../node/surface-fixture.ts';
import { describeDecisions } from './i2-decisions.suite.ts';
import {
  envelopeOf,
  expireRequests,
  type I2Hub,
  i2Hub,
  outcomeOf,
  promptingClient,
  recorded,
  waitingRun,
} from './i2-kit.ts';

let hub: I2Hub;
let stdio: Client;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  hub = await i2Hub();
  stdio = (await stdioClient(hub.home, 'auto')).client;
  closers.push(() => stdio.close());
}, 120_000);
afterAll(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await hub?.close();
}, 60_000);

/**
 * After its requests expired: nothing decided the run, which waits or (once the hub's sweep saw
 * it) ended `expired`, and the board saw none of `text`'s posts.
 */
function undecidedAfterExpiry(runId: string, text: string): void {
  const { status, decisions } = recorded(hub.home, runId);
  expect(decisions).toEqual([]);
  expect(['awaiting_input', 'expired']).toContain(status);
  expect(hub.posts().filter((line) => line.includes(text))).toEqual([]);
}

/** The run still waits, nothing decided it, and the board saw none of `text`'s posts. */
function untouched(runId: string, text: string): void {
  expect(recorded(hub.home, runId)).toEqual({ status: 'awaiting_input', decisions: [] });
  expect(hub.posts().filter((line) => line.includes(text))).toEqual([]);
}

describeDecisions({
  name: 'local',
  clients: () => [stdio, hub.http],
  waitingRun: (label) => waitingRun(hub.http, label),
  untouched: async (runId, label) => untouched(runId, label),
  promptingClient: async (rewrite) => {
    const prompting = await promptingClient(hub.home, rewrite);
    closers.push(() => prompting.client.close());
    return prompting;
  },
});

describe('I2 over the client prompt: the signed state counts only for its run and call, once', () => {
  it('a state answered once is refused when replayed, for its own run or another', async () => {
    const first = await waitingRun(hub.http, 'replay-first');
    const honest = await promptingClient(hub.home);
    closers.push(() => honest.client.close());
    const done = await honest.client.callTool({ name: 'execute', arguments: { resume: first.runId } });
    expect(envelopeOf(done)).toMatchObject({ status: 'completed' });
    const [state] = honest.states;
    if (state === undefined) throw new Error('the client sent no requestState back');
    expect(recorded(hub.home, first.runId).decisions).toHaveLength(1);

    const second = await waitingRun(hub.http, 'replay-second');
    for (const [target, pendingId] of [
      [first.runId, first.pendingId],
      [second.runId, second.pendingId],
    ]) {
      const replay = await promptingClient(hub.home, (params) => {
        params.requestState = state;
        params.inputResponses = { [pendingId ?? '']: { action: 'accept', content: { decision: 'always' } } };
      });
      closers.push(() => replay.client.close());
      expect(
        await outcomeOf(replay.client.callTool({ name: 'execute', arguments: { resume: target } })),
      ).toMatch(/Invalid or expired requestState/);
    }
    expect(recorded(hub.home, first.runId).decisions).toHaveLength(1);
    expect(hub.posts().filter((line) => line.includes('replay-first'))).toHaveLength(1);
    untouched(second.runId, 'replay-second');
  }, 120_000);

  it('run A’s valid state carrying an answer for run B’s call decides neither', async () => {
    const a = await waitingRun(hub.http, 'cross-a');
    const b = await waitingRun(hub.http, 'cross-b');
    const crossing = await promptingClient(hub.home, (params) => {
      if (typeof params.requestState !== 'string') return;
      params.inputResponses = { [b.pendingId]: { action: 'accept', content: { decision: 'always' } } };
    });
    closers.push(() => crossing.client.close());
    const outcome = await outcomeOf(
      crossing.client.callTool({ name: 'execute', arguments: { resume: a.runId } }),
    );
    expect(outcome).toBe(
      `isError: denied: the answer names a call the prompt did not ask about (${b.pendingId}); nothing was decided`,
    );
    expect(crossing.asked).toHaveLength(1);
    untouched(a.runId, 'cross-a');
    untouched(b.runId, 'cross-b');
  }, 120_000);

  it('a valid state answered after its request expired records nothing', async () => {
    const { runId } = await waitingRun(hub.http, 'expired');
    const late = await promptingClient(hub.home, (params) => {
      // The person answers after the request's expiry: time passes between the form and the answer.
      if (typeof params.requestState === 'string') expireRequests(hub.home, runId);
    });
    closers.push(() => late.client.close());
    const outcome = await outcomeOf(late.client.callTool({ name: 'execute', arguments: { resume: runId } }));
    // Refused as expired, or (when the hub's sweep ended the run first) as no longer open.
    expect(outcome).toMatch(
      new RegExp(
        `^isError: denied: the request for board\\.post in run ${runId} expired|no longer open|Invalid or expired requestState`,
      ),
    );
    expect(late.asked).toHaveLength(1);
    undecidedAfterExpiry(runId, 'expired');
  }, 120_000);
});

/** The run's page through its one-time link: the session cookie and the decide form's fields. */
async function openPage(
  link: string,
): Promise<{ cookie: string; csrf: string; pendingId: string; page: string }> {
  const opened = await fetch(link, { redirect: 'manual' });
  const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const location = opened.headers.get('location') ?? '';
  expect(cookie).toMatch(/^capabilities_/);
  const page = new URL(location, link).href;
  const html = await (await fetch(page, { headers: { cookie } })).text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
  return { cookie, csrf: field('csrf'), pendingId: field('pendingId'), page };
}

/** A request with a Host header a browser under DNS rebinding would send. */
function rawRequest(
  base: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((done, fail) => {
    const req = httpRequest({ hostname, port, path, method: body ? 'POST' : 'GET', headers }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', fail);
    req.end(body);
  });
}

describe('I2 on the approval page: only the person’s own session and form decide', () => {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

  it('without a session, with the MCP token, a reused link, no CSRF, a foreign Origin or Host: refused', async () => {
    const before = hub.opened().length;
    const { runId } = await waitingRun(hub.http, 'page');
    const link = hub.opened()[before] ?? '';
    expect(link).toMatch(/\/open\?t=/);
    const decide = new URL(`/runs/${runId}/decide`, hub.url).href;
    const runPage = new URL(`/runs/${runId}`, hub.url).href;

    // No session at all.
    expect((await fetch(runPage, { redirect: 'manual' })).status).toBe(401);
    const bare = await fetch(decide, {
      method: 'POST',
      headers: FORM,
      body: form({ choice: 'once' }),
      redirect: 'manual',
    });
    expect(bare.status).toBe(401);
    // The MCP bearer token is for programs, not a page session.
    const bearer = { authorization: `Bearer ${hub.token}` };
    expect((await fetch(runPage, { headers: bearer, redirect: 'manual' })).status).toBe(401);
    const withToken = await fetch(decide, {
      method: 'POST',
      headers: { ...FORM, ...bearer },
      body: form({ choice: 'once' }),
      redirect: 'manual',
    });
    expect(withToken.status).toBe(401);

    const { cookie, csrf, pendingId } = await openPage(link);
    expect(csrf).not.toBe('');
    expect(pendingId).not.toBe('');
    // The link opened one session; a second use is refused.
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(410);

    const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(decide, {
        method: 'POST',
        headers: { ...FORM, cookie, ...headers },
        body: form(fields),
        redirect: 'manual',
      });
    expect((await post({ pendingId, choice: 'once' })).status).toBe(403);
    expect((await post({ pendingId, choice: 'once', csrf: `${csrf}x` })).status).toBe(403);
    expect((await post({ pendingId, choice: 'once', csrf }, { origin: 'http://evil.example' })).status).toBe(
      403,
    );
    const { host } = new URL(hub.url);
    expect(await rawRequest(hub.url, `/runs/${runId}`, { host: 'evil.example', cookie })).toBe(403);
    const body = form({ pendingId, choice: 'once', csrf });
    const rebound = { ...FORM, host: 'evil.example', cookie, 'content-length': String(body.length) };
    expect(await rawRequest(hub.url, `/runs/${runId}/decide`, rebound, body)).toBe(403);
    expect(
      await rawRequest(
        hub.url,
        `/runs/${runId}/decide`,
        { ...rebound, host, origin: 'http://evil.example' },
        body,
      ),
    ).toBe(403);
    untouched(runId, 'page');

    // The session run A's link opened reaches run A alone: run B's call is out of its reach.
    const other = await waitingRun(hub.http, 'page-other');
    const elsewhere = await fetch(new URL(`/runs/${other.runId}/decide`, hub.url).href, {
      method: 'POST',
      headers: { ...FORM, cookie, origin: new URL(hub.url).origin },
      body: form({ pendingId: other.pendingId, choice: 'always', csrf }),
      redirect: 'manual',
    });
    expect(elsewhere.status).toBe(403);
    untouched(other.runId, 'page-other');

    // Control: the person's own form, whole, records exactly one decision, by the page.
    const ok = await post({ pendingId, choice: 'once', csrf }, { origin: new URL(hub.url).origin });
    expect(ok.status).toBe(303);
    expect(recorded(hub.home, runId).decisions.map((d) => d.channel)).toEqual(['approval page']);
  }, 120_000);
});

describe('I2 at the terminal: `hub approve` decides only what a person chose, while it waits', () => {
  it('without a terminal and without --choice, for a request that expired, for a pending id: nothing', async () => {
    const { runId, pendingId } = await waitingRun(hub.http, 'terminal');
    const piped = cli(hub.home, ['hub', 'approve', runId]);
    expect(piped.status).not.toBe(0);
    const wrongId = cli(hub.home, ['hub', 'approve', pendingId, '--choice', 'always']);
    expect(wrongId.status).not.toBe(0);
    untouched(runId, 'terminal');
    expireRequests(hub.home, runId);
    const late = cli(hub.home, ['hub', 'approve', runId, '--choice', 'once']);
    expect(late.status).not.toBe(0);
    expect(late.stderr).toMatch(/expired/);
    undecidedAfterExpiry(runId, 'terminal');
  }, 120_000);
});

describe('I2 in the import graph', () => {
  it('the road the model’s code runs on (prelude, sandbox, both guest hosts) reaches no module that records', () => {
    const repo = resolve(import.meta.dirname, '../..');
    const roots = [
      ...sourceFiles(repo, 'engine/prelude'),
      ...sourceFiles(repo, 'engine/sandbox'),
      ...sourceFiles(repo, 'local/quickjs'),
      'durable-objects/worker-loader-guest.ts',
    ];
    expect(roots).toContain('local/quickjs/worker.ts');
    const { visited } = checkImportGraph(repo, roots);
    expect(visited.length).toBeGreaterThan(roots.length);
    for (const module of [
      'engine/approvals/person-input.ts',
      'engine/runs/client-prompt.ts',
      'engine/desk/run-desk.ts',
    ])
      expect(visited).not.toContain(module);
  });
});

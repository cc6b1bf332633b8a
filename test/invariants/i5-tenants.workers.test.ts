/**
 * I5, "Tenants are isolated (hosted)": one person's sources, runs, journals, decisions,
 * credentials and search results are invisible to another, on every route and through every MCP
 * operation; resuming another's run, deciding another's pending call or replaying another's
 * requestState is refused as not found; a deleted grant or a revoked token stops working at once.
 *
 * Two people, A (ana) and B (bo), each signed in and holding an MCP token through the real flow
 * (test/workers/oauth-flow.ts), against the Worker's own fetch in workerd. A's hub holds a
 * reviewed source whose URL carries a key, a connection for it, and a run waiting on one call;
 * B attacks. Each `it` is one attack:
 *
 * | Way in        | B's attack                                                  | Held                                  |
 * | ------------- | ----------------------------------------------------------- | ------------------------------------- |
 * | MCP search    | search for A's tool, and list A's namespace                 | nothing found                         |
 * | MCP describe  | describe A's tool address and namespace                     | not found                             |
 * | MCP profiles  | A's profile endpoint `/mcp/<A's profile>` with B's token    | 404 naming B's profiles only          |
 * | MCP skills    | read A's skill resource, skills/get it, list skills         | not found; never listed               |
 * | MCP execute   | code calling A's tool; `hub.search`/`hub.describe` inside   | no such tool; A's hub untouched       |
 * | MCP execute   | `resume` A's waiting run id                                 | not found; no prompt of A's calls     |
 * | MCP prompt    | replay A's signed requestState with answers through B's hub | refused (-32602); nothing recorded    |
 * | MCP, all ops  | look for A's credential in every answer                     | never there; B's hub has no connection|
 * | Dashboard     | A's run page (its journal), the run list, the inbox         | 404; not listed                       |
 * | Dashboard     | decide A's pending call with B's session and CSRF token     | 404; nothing recorded                 |
 * | Dashboard     | A's source page and its review form                         | 404; A's policy unchanged             |
 * | Dashboard     | set a rule on A's tool; A's removal page; remove A's source | 404; A's source, rules, secret intact |
 * | Dashboard     | finish A's sign-in to a source with A's `state` (a stolen callback URL) | refused; A's, once, for A |
 * | Dashboard     | remove A's push device by its id; set a webhook; A's devices listed | 404; B's own; never shown |
 * | Token         | a revoked access token (RFC 7009), a revoked refresh token  | 401 / invalid_grant at once           |
 * | Token         | a deleted grant (the library's revokeGrant)                 | access and refresh stop at once       |
 * | Token         | B's client revokes A's token                                | A's token still works                 |
 * | Token         | B's token naming A's hub: `?hub=`, the signed-in header, a forged `mcp-session-id` | B's hub only |
 * | Token         | the self-hosting HUB_TOKEN naming A's hub                   | the self-hosting hub only             |
 * | Two ways in   | an MCP token (even A's, beside B's cookie) on every page    | sign in first / B's own pages         |
 * | Two ways in   | a session cookie on /mcp, every method                      | 401                                   |
 */
import { runInDurableObject } from 'cloudflare:test';
import { getOAuthApi } from '@cloudflare/workers-oauth-provider';
import { Client, type JSONRPCMessage, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { describe, expect, it } from 'vitest';
import type { HubObject } from '../../durable-objects/hub-object.ts';
import { SIGNED_IN_HEADER } from '../../durable-objects/signed-in-header.ts';
import type { ListedTool } from '../../engine/manifest.ts';
import { skillFromBundle } from '../../engine/skills/skill-bundle.ts';
import { type OAuthHandlers, oauthOptions } from '../../worker/oauth.ts';
import { call, envelope, hubEnv, mcpClient, ORIGIN, RESOURCE, tokenFor } from '../workers/oauth-flow.ts';
import { decisionsOf, hubOf, reviewedSource, signedIn, waitingRun } from '../workers/people.ts';
import { WORKERS_TEST_TOKEN } from '../workers/token.ts';
import { upstreamRoom } from '../workers/upstream.ts';
import { worker, workerTransport } from '../workers/worker-client.ts';

/** A's source: its namespace, tools, and the key its URL carries (a credential A entered). */
const NAMESPACE = 'vaultana';
const TOOL = `${NAMESPACE}.transfer`;
const KEY = 'ana-private-key-0123456789abcdef';
/** A's connection secret, entered in A's hub. */
const SECRET = 'ghp_anaConnectionSecret0123456789abcdefXY';
/** Words of A's tool that only its description holds (a search echoes its query). */
const DESCRIPTION = 'Move money between';
const TOOLS: ListedTool[] = [
  {
    name: 'transfer',
    description: `${DESCRIPTION} the private savings accounts.`,
    inputSchema: { type: 'object', properties: { amount: { type: 'number' } } },
  },
  {
    name: 'balance',
    description: 'Read the private savings balance.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
];

interface Person {
  id: number;
  /** `github:<id>`: the person, and the name of their hub. */
  person: string;
  login: string;
  token: { access: string; refresh: string; clientId: string };
  browser: { cookie: string; csrf: string };
}

let next = 90_000;

async function person(login: string): Promise<Person> {
  next += 1;
  const id = next;
  return {
    id,
    person: `github:${id}`,
    login,
    token: await tokenFor(id, login),
    browser: await signedIn(id, login),
  };
}

/** A and B through the real flow; A's hub holds a reviewed source with a key, its connection, and a waiting run. */
async function twoPeople() {
  const a = await person('ana');
  const b = await person('bo');
  await reviewedSource(a.person, NAMESPACE, `https://vault.example/mcp?key=${KEY}`, TOOLS);
  // A's credential, entered as a person enters it: kept encrypted in A's hub alone.
  await runInDurableObject(hubOf(a.person), async (hub: HubObject) => {
    await hub.engine.sources.saveCredential(
      NAMESPACE,
      'work',
      { kind: 'header', name: 'Authorization', scheme: 'Bearer' },
      SECRET,
    );
  });
  const runId = `run_ana_${a.id}`;
  await waitingRun(a.person, runId, TOOL);
  return { a, b, runId, pendingId: `${runId}_p0` };
}

/** `body` with an SDK client on `token`; closed after. */
async function withClient<T>(
  token: string,
  body: (client: Client) => Promise<T>,
  extras?: Parameters<typeof mcpClient>[1],
): Promise<T> {
  const client = await mcpClient(token, extras);
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

/** Everything a tool call answers, as text (content, structured content, error flag). */
const said = (result: unknown) => JSON.stringify(result);

/** Everything `person`'s hub holds that another person's action could have changed. */
const footprint = (who: string) =>
  runInDurableObject(hubOf(who), async (hub: HubObject) => ({
    runs: hub.store.listRuns({ limit: 10_000 }).map((run) => [run.id, run.status]),
    decisions: hub.store.listRuns({ limit: 10_000 }).flatMap((run) => hub.store.listDecisions(run.id)),
    journal: hub.store.listRuns({ limit: 10_000 }).flatMap((run) => hub.store.listJournal(run.id)),
    policy: hub.store.listPolicyRules(),
    sources: hub.store.listSources().map((s) => s.namespace),
    connections: hub.store.listConnections(),
  }));

const page = (path: string, cookie: string) => call(path, { headers: { cookie } });

const post = (path: string, cookie: string, form: Record<string, string>) =>
  call(path, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
    body: new URLSearchParams(form),
  });

const tokenRequest = (form: Record<string, string>) =>
  call('/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });

/** A raw /mcp POST with `token`: its HTTP status. */
const mcpStatus = async (token: string) =>
  (
    await call('/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
  ).status;

/** The library's helpers over the same KV and options as the Worker's provider. */
const oauthApi = () => {
  const unused = { fetch: () => new Response(null, { status: 404 }) };
  const handlers: OAuthHandlers = { api: unused, pages: unused };
  return getOAuthApi(oauthOptions(ORIGIN, handlers), hubEnv);
};

describe('I5: tenants are isolated (hosted)', () => {
  describe('MCP operations with B’s token', () => {
    it('B searching for A’s tool, or listing A’s namespace, finds nothing', async () => {
      const { a, b } = await twoPeople();
      // A finds it: the search would find it if it were B's.
      const own = await withClient(a.token.access, (c) =>
        c.callTool({ name: 'search', arguments: { query: 'private savings accounts' } }),
      );
      expect(said(own)).toContain(TOOL);
      await withClient(b.token.access, async (c) => {
        for (const args of [
          { query: 'private savings accounts' },
          { query: 'transfer money' },
          { query: '', namespace: NAMESPACE },
          { query: '' },
        ]) {
          const answer = said(await c.callTool({ name: 'search', arguments: args }));
          expect(answer).not.toContain(TOOL);
          expect(answer).not.toContain(DESCRIPTION);
        }
      });
    });

    it('B’s token on A’s profile endpoint is a 404 of B’s hub, and A’s skill is no resource of B’s', async () => {
      const { a, b } = await twoPeople();
      const skillText =
        '---\nname: ana-savings-plan\ndescription: Move the private savings monthly.\n---\nSteps.\n';
      await runInDurableObject(hubOf(a.person), async (hub: HubObject) => {
        const files = [{ path: 'SKILL.md', data: new TextEncoder().encode(skillText) }];
        hub.store.addSkill(await skillFromBundle({ source: '/ana/skills/plan', files }, 1), files);
        hub.store.addProfile({
          name: 'vault-reads',
          mode: 'code',
          namespaces: [NAMESPACE],
          createdAt: 1,
          updatedAt: 1,
        });
      });
      // A reaches both: they would be found if they were B's.
      const url = `${ORIGIN}/mcp/vault-reads`;
      const own = await withClient(
        a.token.access,
        async (c) => [
          said(await c.listResources()),
          said(await c.callTool({ name: 'search', arguments: { query: 'savings' } })),
        ],
        { url },
      );
      expect(own.join()).toContain('skill://ana-savings-plan/SKILL.md');
      expect(own.join()).toContain(TOOL);

      const refused = await call('/mcp/vault-reads', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${b.token.access}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(refused.status).toBe(404);
      const message = await refused.text();
      expect(message, message).toContain('no profile');
      expect(message).not.toContain(NAMESPACE);
      await expect(mcpClient(b.token.access, { url })).rejects.toThrow();

      await withClient(b.token.access, async (c) => {
        expect((await c.listResources()).resources).toEqual([]);
        const read = await c.readResource({ uri: 'skill://ana-savings-plan/SKILL.md' }).catch(String);
        expect(String(read)).not.toContain('Steps');
        const skills = new SkillsClient(c);
        expect((await skills.list()).skills).toEqual([]);
        await expect(skills.get('skill://ana-savings-plan/SKILL.md')).rejects.toThrow();
        const found = said(
          await c.callTool({ name: 'search', arguments: { query: 'move the private savings monthly' } }),
        );
        expect(found).not.toContain('ana-savings-plan');
      });
    });

    it('B describing A’s tool address or namespace is told it is not found', async () => {
      const { a, b } = await twoPeople();
      const own = await withClient(a.token.access, (c) =>
        c.callTool({ name: 'describe', arguments: { targets: [TOOL] } }),
      );
      expect(said(own)).toContain(DESCRIPTION);
      await withClient(b.token.access, async (c) => {
        for (const target of [TOOL, NAMESPACE, `${NAMESPACE}.balance`]) {
          const answer = said(await c.callTool({ name: 'describe', arguments: { targets: [target] } }));
          expect(answer).toContain(`not_found: describe found no namespace \\"${NAMESPACE}\\"`);
          expect(answer).not.toContain(DESCRIPTION);
        }
      });
    });

    it('B’s code calling A’s tool, or looking it up inside the sandbox, reaches nothing of A’s', async () => {
      const { a, b } = await twoPeople();
      const before = await footprint(a.person);
      const code = `
        const found = [];
        const attempt = async (f) => { try { found.push(await f()); } catch (e) { found.push(String(e.code ?? e.name) + ": " + e.message); } };
        await attempt(() => ${TOOL}({ amount: 1 }));
        await attempt(() => hub.search("private savings accounts"));
        await attempt(() => hub.search("", { namespace: "${NAMESPACE}" }));
        await attempt(() => hub.describe("${TOOL}"));
        return found;
      `;
      const answer = await withClient(b.token.access, (c) =>
        c.callTool({ name: 'execute', arguments: { code } }),
      );
      expect(envelope(answer)).toMatchObject({
        status: 'completed',
        calls: [],
        result: [
          `ReferenceError: ${NAMESPACE} is not defined`,
          // B's hub has no sources: every search says so (A's namespace is not one of B's).
          expect.stringMatching(/^No tools yet: this hub has no sources/),
          expect.stringMatching(/^No tools yet: this hub has no sources/),
          expect.stringMatching(new RegExp(`^invalid_input: describe found no namespace "${NAMESPACE}"`)),
        ],
      });
      const text = said(answer);
      expect(text).not.toContain(DESCRIPTION);
      expect(text).not.toContain(`${NAMESPACE}.balance`);
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(SECRET);
      expect(envelope(answer)?.status).not.toBe('awaiting_approval');
      expect(await footprint(a.person)).toEqual(before);
    });

    it('B resuming A’s waiting run is refused as not found, and B is not asked A’s calls', async () => {
      const { a, b, runId } = await twoPeople();
      const before = await footprint(a.person);
      const answer = await withClient(b.token.access, (c) =>
        c.callTool({ name: 'execute', arguments: { resume: runId } }),
      );
      const text = said(answer);
      expect(text).toContain(`not_found: no run ${runId}`);
      expect(text).not.toContain(TOOL);
      expect(text).not.toContain('requestState');
      expect(await footprint(a.person)).toEqual(before);
    });

    it('B replaying A’s requestState through B’s hub is refused, and nothing is recorded anywhere', async () => {
      const { a, b, runId, pendingId } = await twoPeople();
      // A's hub signs a state for A's waiting run, as it does for A's own client's prompt.
      const asked = await runInDurableObject(hubOf(a.person), (hub: HubObject) => hub.promptAsk(runId));
      if (!asked.ok || !asked.value) throw new Error('A’s hub gave no prompt for its waiting run');
      const state = asked.value.requestState;
      const beforeA = await footprint(a.person);
      const beforeB = await footprint(b.person);

      // B's 2026-07-28 client sends A's state and an "always" answer for A's pending call.
      const client = new Client(
        { name: 'replay', version: '1.0.0' },
        { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } },
      );
      const replaying = new StreamableHTTPClientTransport(new URL(RESOURCE), {
        requestInit: { headers: { authorization: `Bearer ${b.token.access}` } },
        fetch: (input, init) => worker.fetch(new Request(input, init)),
      });
      const send = replaying.send.bind(replaying);
      replaying.send = (message: JSONRPCMessage, options) => {
        if ('method' in message && message.method === 'tools/call' && message.params) {
          message.params.requestState = state;
          message.params.inputResponses = {
            [pendingId]: { action: 'accept', content: { decision: 'always' } },
          };
        }
        return send(message, options);
      };
      await client.connect(replaying);
      try {
        const outcome = await client
          .callTool({ name: 'execute', arguments: { code: 'return 1' } })
          .then((r) => said(r))
          .catch((error: unknown) => String(error));
        expect(outcome).toBe('ProtocolError: Invalid or expired requestState');
      } finally {
        await client.close();
      }
      expect(await footprint(a.person)).toEqual(beforeA);
      expect(await footprint(b.person)).toEqual(beforeB);
      expect(await decisionsOf(a.person, runId)).toEqual([]);
      // The state itself was good: A's own hub still accepts it.
      const check = await runInDurableObject(hubOf(a.person), (hub: HubObject) => hub.promptCheck(state));
      expect(check.ok).toBe(true);
    });

    it('A’s credential never appears in any of B’s answers, and B’s hub has no connection or source of A’s', async () => {
      const { a, b, runId } = await twoPeople();
      const answers: string[] = [];
      await withClient(b.token.access, async (c) => {
        answers.push(said(await c.listTools()));
        answers.push(said(await c.callTool({ name: 'search', arguments: { query: '' } })));
        answers.push(said(await c.callTool({ name: 'search', arguments: { query: 'vault key' } })));
        answers.push(said(await c.callTool({ name: 'describe', arguments: { targets: [TOOL, NAMESPACE] } })));
        answers.push(said(await c.callTool({ name: 'execute', arguments: { resume: runId } })));
        answers.push(
          said(
            await c.callTool({
              name: 'execute',
              arguments: { code: 'return [await hub.search(""), await hub.search("vault")]' },
            }),
          ),
        );
      });
      for (const path of ['/', '/runs', '/sources', `/sources/${NAMESPACE}`, `/runs/${runId}`]) {
        answers.push(await (await page(path, b.browser.cookie)).text());
      }
      for (const answer of answers) {
        expect(answer).not.toContain(KEY);
        expect(answer).not.toContain(SECRET);
        expect(answer).not.toContain('vault.example');
        expect(answer).not.toContain(`${NAMESPACE}/work`);
      }
      const mine = await footprint(b.person);
      expect(mine.connections).toEqual([]);
      expect(mine.sources).toEqual([]);
      // A's hub does hold them: the check above looked for something real.
      const theirs = await footprint(a.person);
      expect(theirs.connections.map((c) => `${c.namespace}/${c.name}`)).toEqual([`${NAMESPACE}/work`]);
    });
  });

  describe('the dashboard with B’s session', () => {
    it('B opening A’s run page (its journal) is not found, and A’s run is in neither B’s run list nor inbox', async () => {
      const { a, b, runId } = await twoPeople();
      const own = await page(`/runs/${runId}`, a.browser.cookie);
      expect(own.status).toBe(200);
      expect(await own.text()).toContain(TOOL);
      const theirs = await page(`/runs/${runId}`, b.browser.cookie);
      expect(theirs.status).toBe(404);
      expect(await theirs.text()).not.toContain(TOOL);
      // Naming A's hub in the request, or forging the Worker's signed-in header, changes nothing.
      const named = await call(`/runs/${runId}?hub=${encodeURIComponent(a.person)}`, {
        headers: {
          cookie: b.browser.cookie,
          [SIGNED_IN_HEADER]: JSON.stringify({ who: `github:${a.login}`, csrf: a.browser.csrf }),
        },
      });
      expect(named.status).toBe(404);
      for (const path of ['/runs', '/']) {
        const list = await page(path, b.browser.cookie);
        expect(list.status).toBe(200);
        const html = await list.text();
        expect(html).not.toContain(runId);
        expect(html).not.toContain(TOOL);
      }
    });

    it('B deciding A’s pending call with B’s session and CSRF token is not found, and nothing is recorded', async () => {
      const { a, b, runId, pendingId } = await twoPeople();
      const before = await footprint(a.person);
      for (const choice of ['once', 'always', 'deny']) {
        const refused = await post(`/runs/${runId}/decide`, b.browser.cookie, {
          pendingId,
          choice,
          csrf: b.browser.csrf,
        });
        expect(refused.status).toBe(404);
      }
      // With A's CSRF token (if B had it) B's session still reaches B's hub only.
      const withTheirs = await post(`/runs/${runId}/decide`, b.browser.cookie, {
        pendingId,
        choice: 'once',
        csrf: a.browser.csrf,
      });
      expect([403, 404]).toContain(withTheirs.status);
      expect(await decisionsOf(a.person, runId)).toEqual([]);
      expect(await footprint(a.person)).toEqual(before);
      expect((await footprint(b.person)).decisions).toEqual([]);
    });

    it('B opening A’s source page, or posting its review form, is not found and changes nothing', async () => {
      const { a, b } = await twoPeople();
      const own = await page(`/sources/${NAMESPACE}`, a.browser.cookie);
      expect(own.status).toBe(200);
      const list = await page('/sources', b.browser.cookie);
      expect(list.status).toBe(200);
      expect(await list.text()).not.toContain(NAMESPACE);
      const theirs = await page(`/sources/${NAMESPACE}`, b.browser.cookie);
      expect(theirs.status).toBe(404);
      expect(await theirs.text()).not.toContain(DESCRIPTION);
      const before = await footprint(a.person);
      const review = await post(`/sources/${NAMESPACE}/review`, b.browser.cookie, {
        csrf: b.browser.csrf,
        choice: 'accept',
        [`effect:${TOOL}`]: 'allow',
      });
      expect(review.status).toBe(404);
      expect(await footprint(a.person)).toEqual(before);
      expect((await footprint(b.person)).policy).toEqual([]);
    });
    it('B finishing A’s sign-in to a source with A’s state is refused; it still waits for A, once', async () => {
      const { a, b } = await twoPeople();
      const room = upstreamRoom('signin');
      const started = await post('/sources/new', a.browser.cookie, {
        csrf: a.browser.csrf,
        kind: 'mcp-http',
        url: `${room.base}/signin/mcp`,
        header: 'Authorization',
        scheme: 'Bearer',
      });
      const html = await started.text();
      expect(started.status, html).toBe(200);
      const href = /<a href="([^"]+)">Continue to/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? '';
      const authorize = new URL(href);
      expect(authorize.origin + authorize.pathname).toBe(`${room.base}/signin/authorize`);
      expect(authorize.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/sources/oauth/callback`);
      const callback = `/sources/oauth/callback?code=a-code-for-ana&state=${authorize.searchParams.get('state')}`;
      const before = await footprint(a.person);
      const stolen = await page(callback, b.browser.cookie);
      expect(stolen.status).toBe(400);
      expect(await stolen.text()).toContain('No sign-in of yours waits for this answer');
      expect(await room.calls()).not.toContain('token');
      expect(await footprint(a.person)).toEqual(before);
      expect((await footprint(b.person)).sources).toEqual([]);
      // A's own callback still finds it: its code goes to the token endpoint (which refuses this one).
      const own = await page(callback, a.browser.cookie);
      expect(own.status).toBe(400);
      expect(await own.text()).toContain('refused the sign-in (invalid_grant');
      expect(await room.calls()).toEqual(['token']);
      // Once: the same state again finds nothing waiting, and nothing is redeemed.
      const replayed = await page(callback, a.browser.cookie);
      expect(await replayed.text()).toContain('No sign-in of yours waits for this answer');
      expect(await room.calls()).toEqual(['token']);
    });
  });

  describe('the dashboard’s changes with B’s session', () => {
    it('B setting a rule on A’s tool, opening A’s removal page or removing A’s source is not found and changes nothing', async () => {
      const { a, b } = await twoPeople();
      const contract = await runInDurableObject(
        hubOf(a.person),
        async (hub: HubObject) =>
          hub.store.getManifest(NAMESPACE)?.tools.find((t) => t.address === TOOL)?.contract ?? '',
      );
      expect(contract).toMatch(/^[0-9a-f]{64}$/);
      // A reaches A's own: the attacks below would change something if B's session reached it.
      expect((await page(`/sources/${NAMESPACE}/remove`, a.browser.cookie)).status).toBe(200);
      const before = await footprint(a.person);
      const removal = await page(`/sources/${NAMESPACE}/remove`, b.browser.cookie);
      expect(removal.status).toBe(404);
      expect(await removal.text()).not.toContain(`${NAMESPACE}/work`);
      for (const rule of ['allow', 'deny', 'default']) {
        const refused = await post(`/sources/${NAMESPACE}/rule`, b.browser.cookie, {
          csrf: b.browser.csrf,
          address: TOOL,
          contract,
          rule,
        });
        expect(refused.status, rule).toBe(404);
      }
      const removed = await post(`/sources/${NAMESPACE}/remove`, b.browser.cookie, {
        csrf: b.browser.csrf,
        confirm: 'remove',
      });
      expect(removed.status).toBe(404);
      // With A's CSRF token (if B had it) B's session still reaches B's hub only.
      for (const [path, form] of [
        [`/sources/${NAMESPACE}/rule`, { address: TOOL, contract, rule: 'allow' }],
        [`/sources/${NAMESPACE}/remove`, { confirm: 'remove' }],
      ] as const) {
        const withTheirs = await post(path, b.browser.cookie, { ...form, csrf: a.browser.csrf });
        expect([403, 404], path).toContain(withTheirs.status);
      }
      expect(await footprint(a.person)).toEqual(before);
      await runInDurableObject(hubOf(a.person), async (hub: HubObject, state) => {
        expect(hub.engine.desk.sources.history({ namespace: NAMESPACE })).toEqual([]);
        // A's encrypted secret is still kept, under its connection's key.
        const [ref] = hub.store.listConnections(NAMESPACE)[0]?.secrets ?? [];
        const keys = [...(await state.storage.list()).keys()];
        expect(keys.some((key) => ref !== undefined && key.endsWith(ref.key))).toBe(true);
      });
      const mine = await footprint(b.person);
      expect(mine.policy).toEqual([]);
      expect(mine.sources).toEqual([]);
    });
  });

  describe('notifications with B’s session', () => {
    it('B removing A’s device by its id is not found, B’s webhook is B’s alone, and A’s devices stay A’s', async () => {
      const { a, b } = await twoPeople();
      const device = {
        id: 'dev_ana_phone',
        endpoint: 'https://push.example/ana-phone',
        p256dh: `B${'A'.repeat(86)}`,
        auth: 'AAAAAAAAAAAAAAAAAAAAAA',
        label: 'Ana’s phone',
        createdAt: Date.now(),
      };
      await runInDurableObject(hubOf(a.person), async (hub: HubObject) => hub.store.putPushDevice(device));
      const settings = await page('/settings/notifications', b.browser.cookie);
      expect(settings.status).toBe(200);
      expect(await settings.text()).not.toContain('Ana’s phone');
      const removed = await post(`/settings/notifications/devices/${device.id}/remove`, b.browser.cookie, {
        csrf: b.browser.csrf,
      });
      expect(removed.status).toBe(404);
      const withTheirs = await post(`/settings/notifications/devices/${device.id}/remove`, b.browser.cookie, {
        csrf: a.browser.csrf,
      });
      expect([403, 404]).toContain(withTheirs.status);
      const hook = await post('/settings/notifications/webhook', b.browser.cookie, {
        csrf: b.browser.csrf,
        webhook: 'https://hooks.example/bo',
        action: 'save',
      });
      expect(hook.status).toBe(303);
      await runInDurableObject(hubOf(a.person), async (hub: HubObject) => {
        expect(hub.store.listPushDevices().map((d) => d.id)).toEqual([device.id]);
        expect(hub.store.getNotifySettings().webhook).toBeUndefined();
      });
      await runInDurableObject(hubOf(b.person), async (hub: HubObject) => {
        expect(hub.store.listPushDevices()).toEqual([]);
        expect(hub.store.getNotifySettings().webhook).toBe('https://hooks.example/bo');
      });
    });
  });

  describe('tokens', () => {
    it('a revoked access token stops at once (RFC 7009), and the other person’s token is untouched', async () => {
      const { a, b } = await twoPeople();
      expect(await mcpStatus(a.token.access)).toBe(200);
      const revoked = await tokenRequest({ token: a.token.access, client_id: a.token.clientId });
      expect(revoked.status).toBe(200);
      expect(await mcpStatus(a.token.access)).toBe(401);
      expect(await mcpStatus(b.token.access)).toBe(200);
    });

    it('a revoked refresh token cannot be exchanged any more', async () => {
      const { a } = await twoPeople();
      const revoked = await tokenRequest({ token: a.token.refresh, client_id: a.token.clientId });
      expect(revoked.status).toBe(200);
      const refreshed = await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: a.token.refresh,
        client_id: a.token.clientId,
      });
      expect(refreshed.status).toBe(400);
      expect(((await refreshed.json()) as { error: string }).error).toBe('invalid_grant');
    });

    it('a deleted grant stops its access and refresh tokens at once', async () => {
      const { a, b } = await twoPeople();
      const api = oauthApi();
      const userId = `github-${a.id}`;
      const grants = await api.listUserGrants(userId);
      expect(grants.items).toHaveLength(1);
      const grant = grants.items[0];
      if (!grant) throw new Error('no grant listed');
      expect(grant.clientId).toBe(a.token.clientId);
      expect(await mcpStatus(a.token.access)).toBe(200);
      await api.revokeGrant(grant.id, userId);
      expect(await mcpStatus(a.token.access)).toBe(401);
      const refreshed = await tokenRequest({
        grant_type: 'refresh_token',
        refresh_token: a.token.refresh,
        client_id: a.token.clientId,
      });
      expect(refreshed.status).toBe(400);
      expect((await api.listUserGrants(userId)).items).toEqual([]);
      // B's grant is B's own and still works.
      expect((await api.listUserGrants(`github-${b.id}`)).items).toHaveLength(1);
      expect(await mcpStatus(b.token.access)).toBe(200);
    });

    it('B’s client revoking A’s token leaves A’s token working', async () => {
      const { a, b } = await twoPeople();
      await tokenRequest({ token: a.token.access, client_id: b.token.clientId });
      await tokenRequest({ token: a.token.refresh, client_id: b.token.clientId });
      expect(await mcpStatus(a.token.access)).toBe(200);
    });

    it('B’s token naming A’s hub (?hub=, the signed-in header, a forged mcp-session-id) still serves B’s hub only', async () => {
      const { a, b, runId } = await twoPeople();
      const extras = {
        url: `${RESOURCE}?hub=${encodeURIComponent(a.person)}`,
        headers: {
          [SIGNED_IN_HEADER]: JSON.stringify({ who: `github:${a.login}`, csrf: a.browser.csrf }),
          'mcp-session-id': `forged-${a.id}`,
          'x-hub': a.person,
        },
      };
      await withClient(
        b.token.access,
        async (c) => {
          const found = said(
            await c.callTool({ name: 'search', arguments: { query: '', namespace: NAMESPACE } }),
          );
          expect(found).not.toContain(TOOL);
          const resumed = said(await c.callTool({ name: 'execute', arguments: { resume: runId } }));
          expect(resumed).toContain(`not_found: no run ${runId}`);
        },
        extras,
      );
      // A's token with the same request reaches A's hub: the token, not the request, names it.
      await withClient(
        a.token.access,
        async (c) => {
          const found = said(
            await c.callTool({ name: 'search', arguments: { query: '', namespace: NAMESPACE } }),
          );
          expect(found).toContain(TOOL);
        },
        { ...extras, url: `${RESOURCE}?hub=${encodeURIComponent(b.person)}` },
      );
    });

    it('the self-hosting HUB_TOKEN naming A’s hub reaches only the self-hosting hub', async () => {
      const { a, runId } = await twoPeople();
      const client = new Client({ name: 'self-host', version: '1.0.0' });
      const transport = workerTransport();
      await client.connect(transport);
      try {
        const found = said(
          await client.callTool({ name: 'search', arguments: { query: '', namespace: NAMESPACE } }),
        );
        expect(found).not.toContain(TOOL);
        const resumed = said(await client.callTool({ name: 'execute', arguments: { resume: runId } }));
        expect(resumed).toContain(`not_found: no run ${runId}`);
      } finally {
        await client.close();
      }
      const named = await call(`/mcp?hub=${encodeURIComponent(a.person)}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${WORKERS_TEST_TOKEN}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'execute', arguments: { resume: runId } },
        }),
      });
      expect(named.status).toBe(200);
      const text = await named.text();
      expect(text).toContain(`not_found: no run ${runId}`);
      expect(text).not.toContain(TOOL);
    });
  });

  describe('the two ways in stay apart', () => {
    it('an MCP access token opens no dashboard page: sign in first, and beside B’s cookie only B’s pages', async () => {
      const { a, b, runId, pendingId } = await twoPeople();
      const bearer = { authorization: `Bearer ${a.token.access}` };
      for (const path of ['/', '/runs', `/runs/${runId}`, '/sources', `/sources/${NAMESPACE}`]) {
        const response = await call(path, { headers: bearer });
        expect(response.status, path).toBe(302);
        expect(response.headers.get('location'), path).toBe(`/login?next=${encodeURIComponent(path)}`);
      }
      for (const path of [
        `/runs/${runId}/decide`,
        `/sources/${NAMESPACE}/review`,
        `/sources/${NAMESPACE}/rule`,
        `/sources/${NAMESPACE}/remove`,
      ]) {
        const response = await call(path, {
          method: 'POST',
          headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
          body: new URLSearchParams({ pendingId, choice: 'once', csrf: a.browser.csrf }),
        });
        expect(response.status, path).toBe(401);
      }
      // A's token beside B's cookie: the cookie decides, so B's own hub answers, without A's run.
      const mixed = await call(`/runs/${runId}`, { headers: { ...bearer, cookie: b.browser.cookie } });
      expect(mixed.status).toBe(404);
      expect(await decisionsOf(a.person, runId)).toEqual([]);
    });

    it('a session cookie opens no /mcp, whatever the method', async () => {
      const { a } = await twoPeople();
      for (const method of ['GET', 'POST', 'DELETE']) {
        const response = await call('/mcp', {
          method,
          headers: {
            cookie: a.browser.cookie,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) } : {}),
        });
        expect(response.status, method).toBe(401);
      }
    });
  });
});

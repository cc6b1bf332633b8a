/**
 * Changing a source from its page (dashboard/source-change-routes.tsx), through the Hono sub-app
 * over the real local store, a real engine and the QuickJS sandbox (its server played by a
 * connector whose answers the test sets): a tool's rule set to allow, deny, ask or back to the
 * default decides its next call; removal first shows what it takes, then on Confirm takes the
 * tools, connections and their secrets, rules and reviews, and the next call finds no tool; every
 * change (a review from the page too) is in the source's history with who made it; a form without the session's token, not
 * confirmed, naming a tool not of the source or shown with a contract that changed since is
 * refused with nothing changed; a run's session reaches none of it; the Sign out button is there
 * only where the host has a sign-out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDashboard } from '../../dashboard/dashboard.tsx';
import type { PageSession } from '../../dashboard/session.ts';
import type { SourceConnector } from '../../engine/connectors/connector.ts';
import type { PageTarget } from '../../engine/contracts/pages.ts';
import { createEngine, type Engine } from '../../engine/engine.ts';
import type { ListedTool } from '../../engine/manifest.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { QuickJsSandbox } from '../../local/quickjs/sandbox.ts';
import { localWording } from '../../local/wording.ts';

const CSRF = 'csrf-token-of-the-test-session';
const T0 = 1_800_000_000_000;
const SECRET = 'connection-secret-value-0123456789';
const TOOLS: ListedTool[] = [
  {
    name: 'post',
    description: 'Post a message to the board.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  },
  {
    name: 'list_posts',
    description: 'List the posts.',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true },
  },
];
/** Calls board.post; answers what came back, or the error's code and message. */
const POST = `try { return await board.post({ text: "hi" }); } catch (e) { return String(e.code ?? e.name) + ": " + e.message; }`;

const sandbox = new QuickJsSandbox({ poolSize: 1 });
afterAll(() => sandbox.close());

/** A hub with one source, "board", added with the proposal, with a `work` connection. */
class World {
  readonly dir = mkdtempSync(join(tmpdir(), 'capabilities-source-changes-'));
  readonly local: LocalStore = openLocalStore(join(this.dir, 'hub.db'), T0);
  now = T0;
  tools: ListedTool[] = TOOLS;
  readonly held = new Map<string, string>();
  readonly calls: string[] = [];
  readonly engine: Engine;

  constructor() {
    const connector = new Proxy({} as SourceConnector, {
      get: (_target, name) => {
        if (name === 'listTools') return async () => ({ tools: this.tools });
        if (name === 'callTool')
          return async (_source: unknown, _credentials: unknown, request: { name: string }) => {
            this.calls.push(request.name);
            return { content: [{ type: 'text', text: `did ${request.name}` }] };
          };
        if (name === 'privateAddresses') return 'allow';
        return () => undefined;
      },
    });
    const held = this.held;
    this.engine = createEngine({
      wording: localWording,
      store: this.local.store,
      connector,
      secrets: {
        where: 'this test',
        get: async (key) => held.get(key),
        set: async (key, value) => void held.set(key, value),
        delete: async (key) => void held.delete(key),
      },
      clock: { now: () => this.now },
      random: { bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) },
      sandbox: () => sandbox,
    });
  }

  async seed(): Promise<void> {
    const inspection = await this.engine.sources.inspect(
      { kind: 'mcp-http', url: 'https://board.example/mcp' },
      'board',
    );
    this.engine.sources.addSource(inspection, new Map(inspection.review.map((i) => [i.address, i.proposed])));
    await this.engine.sources.saveCredential(
      'board',
      'work',
      { kind: 'header', name: 'Authorization', scheme: 'Bearer' },
      SECRET,
    );
  }

  app(scope: PageTarget = { kind: 'dashboard' }, signOut?: string) {
    const session: PageSession = { who: 'ana', csrf: CSRF, scope };
    return createDashboard({
      desk: this.engine.desk,
      clock: { now: () => this.now },
      review: this.engine.sources,
      wording: this.engine.wording,
      ...(signOut ? { signOut } : {}),
      session: async (c, next) => {
        c.set('session', session);
        await next();
      },
    });
  }

  async run(code = POST) {
    return (await this.engine.runs()).execute(code);
  }

  close(): void {
    this.local.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

let world: World;
beforeEach(async () => {
  world = new World();
  await world.seed();
});
afterEach(() => world.close());

const contractOf = (address: string) =>
  world.local.store.getManifest('board')?.tools.find((t) => t.address === address)?.contract ?? '';

const postForm = (path: string, form: Record<string, string>, app = world.app()) =>
  app.request(path, { method: 'POST', body: new URLSearchParams(form) });

const setRule = (rule: string, extra: Record<string, string> = {}) =>
  postForm('/sources/board/rule', {
    csrf: CSRF,
    address: 'board.post',
    contract: contractOf('board.post'),
    rule,
    ...extra,
  });

/** board.post's rules, without their random ids. */
const rulesOfPost = () =>
  world.local.store.listPolicyRules('board.post').map(({ id: _id, createdAt: _at, ...rule }) => rule);

describe('a tool’s rule, set on the source’s page', () => {
  it('shows each tool with its rule, the contract it pins to and how its next call is decided', async () => {
    const html = await (await world.app().request('/sources/board')).text();
    expect(html).toContain('<h2>Rules</h2>');
    expect(html).toContain(`<code>${contractOf('board.post')}</code>`);
    expect(html).toContain('<form method="post" action="board/rule">');
    expect(html).toContain('<input type="hidden" name="address" value="board.post"/>');
    expect(html).toContain('asks a person: asks by your policy on board.post');
    expect(html).toContain('runs without asking: allowed by your policy on board.list_posts');
    expect(html).toMatch(/<option value="ask" selected="">Ask: a person approves each call<\/option>/);
    expect(html).toContain('No changes made from a page yet.');
  });

  it('takes effect on the next call: a write set to allow runs without asking, deny is refused, default asks again', async () => {
    const asked = await world.run();
    expect(asked.status).toBe('awaiting_approval');
    expect(world.calls).toEqual([]);

    expect((await setRule('allow')).status).toBe(303);
    expect(rulesOfPost()).toEqual([
      {
        target: { kind: 'tool', address: 'board.post' },
        effect: 'allow',
        contract: contractOf('board.post'),
      },
    ]);
    const allowed = await world.run();
    expect(allowed).toMatchObject({ status: 'completed', result: 'did post' });
    expect(world.calls).toEqual(['post']);

    expect((await setRule('deny')).status).toBe(303);
    const denied = await world.run();
    expect(denied.status).toBe('completed');
    expect(String(denied.result)).toMatch(/^denied: /);
    expect(world.calls).toEqual(['post']);

    expect((await setRule('default')).status).toBe(303);
    expect(rulesOfPost()).toEqual([]);
    // Still reviewed at its contract: the default decides (it is not read-only, so it asks).
    expect((await world.run()).status).toBe('awaiting_approval');
    expect(world.calls).toEqual(['post']);

    const history = world.engine.desk.sources.history({ namespace: 'board' });
    expect(history.map((e) => [e.who, e.change])).toEqual([
      ['ana', { kind: 'rule', address: 'board.post', effect: 'default', contract: contractOf('board.post') }],
      ['ana', { kind: 'rule', address: 'board.post', effect: 'deny', contract: contractOf('board.post') }],
      ['ana', { kind: 'rule', address: 'board.post', effect: 'allow', contract: contractOf('board.post') }],
    ]);
    const page = await (await world.app().request('/sources/board')).text();
    expect(page).toContain(
      `ana: board.post: rule set to deny, pinned to contract ${contractOf('board.post').slice(0, 12)}…`,
    );
  });

  it('refuses a form without the session’s token, a tool not of the source, a choice outside the four, and a contract changed since, changing nothing', async () => {
    const before = rulesOfPost();
    const refused = await setRule('allow', { csrf: 'not-the-token' });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Rule not changed');
    const stranger = await setRule('allow', { address: 'other.post' });
    expect(stranger.status).toBe(400);
    expect(await stranger.text()).toContain('Not a tool of this source');
    const odd = await setRule('sometimes');
    expect(odd.status).toBe(400);
    expect(await odd.text()).toContain('not one of Default, Allow, Ask or Deny');
    const stale = await setRule('allow', { contract: 'ab'.repeat(32) });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain('Changed since you saw it');
    expect(rulesOfPost()).toEqual(before);
    expect(world.engine.desk.sources.history({ namespace: 'board' })).toEqual([]);
    const runOnly = await postForm(
      '/sources/board/rule',
      { csrf: CSRF, address: 'board.post', contract: contractOf('board.post'), rule: 'allow' },
      world.app({ kind: 'run', runId: 'run_x' }),
    );
    expect(runOnly.status).toBe(403);
    expect(rulesOfPost()).toEqual(before);
  });
});

describe('a review from the source’s page', () => {
  it('is in the source’s history too, as the session’s person’s', async () => {
    world.tools = [...TOOLS, { name: 'pin', description: 'Pin a post.', inputSchema: { type: 'object' } }];
    await world.engine.sources.refresh('board');
    const reviewed = await postForm('/sources/board/review', {
      csrf: CSRF,
      choice: 'accept',
      'contract:board.pin': contractOf('board.pin'),
    });
    expect(reviewed.status).toBe(303);
    expect(world.engine.desk.sources.history({ namespace: 'board' }).map((e) => [e.who, e.change])).toEqual([
      ['ana', { kind: 'reviewed', tools: 1 }],
    ]);
    expect(await (await world.app().request('/sources/board')).text()).toContain('ana: reviewed one tool');
  });
});

describe('removing a source from its page', () => {
  it('shows what removal takes first, removes it only on Confirm, and the next call finds no tool', async () => {
    const waiting = await world.run();
    expect(waiting.status).toBe('awaiting_approval');
    const source = await (await world.app().request('/sources/board')).text();
    expect(source).toContain('<a href="board/remove">Remove board…</a>');

    const shown = await world.app().request('/sources/board/remove');
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain(
      '<li>its 2 tools: board.post, board.list_posts (the next call of one finds no such tool)</li>',
    );
    expect(html).toContain(
      '<li>its 1 connection: work (1 stored secret), with their secrets deleted from where the hub keeps them</li>',
    );
    expect(html).toContain('<li>2 policy rules on it or its tools</li>');
    expect(html).toContain('<li>what you approved of 2 tools (added again, each asks anew)</li>');
    expect(html).toContain('One run waits on a call to it. It stays;');
    expect(html).toContain(`<a href="/runs/${waiting.runId}">${waiting.runId}</a>: board.post`);
    expect(html).toContain('<form method="post" action="remove">');
    expect(html).toContain(`<input type="hidden" name="csrf" value="${CSRF}"/>`);
    // Showing it removed nothing.
    expect(world.local.store.getSource('board')).toBeDefined();

    const noToken = await postForm('/sources/board/remove', { csrf: 'nope', confirm: 'remove' });
    expect(noToken.status).toBe(403);
    expect(await noToken.text()).toContain('Source not removed');
    const unconfirmed = await postForm('/sources/board/remove', { csrf: CSRF });
    expect(unconfirmed.status).toBe(400);
    const runOnly = await postForm(
      '/sources/board/remove',
      { csrf: CSRF, confirm: 'remove' },
      world.app({ kind: 'run', runId: waiting.runId }),
    );
    expect(runOnly.status).toBe(403);
    expect(world.local.store.getSource('board')).toBeDefined();
    expect([...world.held.values()]).toEqual([SECRET]);

    // The confirm covers what the page showed: a connection added since refuses it, nothing removed.
    const shownStamp = /<input type="hidden" name="shown" value="([0-9a-f]{64})"\/>/.exec(html)?.[1] ?? '';
    expect(shownStamp).not.toBe('');
    const later = { namespace: 'board', name: 'later', isDefault: false, secrets: [], createdAt: 9 };
    world.local.store.putConnection(later);
    const stale = await postForm('/sources/board/remove', {
      csrf: CSRF,
      confirm: 'remove',
      shown: shownStamp,
    });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain('changed since the removal page was shown');
    expect(world.local.store.getSource('board')).toBeDefined();
    const unshown = await postForm('/sources/board/remove', { csrf: CSRF, confirm: 'remove' });
    expect(unshown.status).toBe(409);
    world.local.store.removeConnection('board', 'later');

    const removed = await postForm('/sources/board/remove', {
      csrf: CSRF,
      confirm: 'remove',
      shown: shownStamp,
    });
    expect(removed.status).toBe(303);
    expect(removed.headers.get('location')).toBe('../../sources');
    const store = world.local.store;
    expect(store.getSource('board')).toBeUndefined();
    expect(store.listConnections('board')).toEqual([]);
    expect(store.listPolicyRules()).toEqual([]);
    expect(store.listReviews('board')).toEqual([]);
    expect(world.held.size).toBe(0);

    const next = await world.run();
    expect(next).toMatchObject({ status: 'completed', result: "ReferenceError: 'board' is not defined" });
    expect(world.calls).toEqual([]);

    expect(world.engine.desk.sources.history({ namespace: 'board' }).map((e) => [e.who, e.change])).toEqual([
      ['ana', { kind: 'removed', tools: 2, connections: 1, rules: 2 }],
    ]);
    const list = await (await world.app().request('/sources')).text();
    expect(list).toContain('<h2>Removed</h2>');
    expect(list).toContain(
      'board: 2027-01-15 08:00 UTC, ana: removed, with 2 tools, 1 connection and the secrets stored for it, 2 policy rules',
    );
    // Gone: its page, its removal, and a second removal say so.
    expect((await world.app().request('/sources/board')).status).toBe(404);
    expect((await world.app().request('/sources/board/remove')).status).toBe(404);
    expect((await postForm('/sources/board/remove', { csrf: CSRF, confirm: 'remove' })).status).toBe(404);
  });
});

describe('the Sign out button', () => {
  it('is in the navigation only where the host has a sign-out, posting the session’s CSRF token', async () => {
    const local = await (await world.app().request('/sources')).text();
    expect(local).not.toContain('Sign out');
    for (const path of ['/', '/runs', '/sources', '/sources/board', '/sources/board/remove', '/nowhere']) {
      const html = await (await world.app(undefined, '/logout').request(path)).text();
      expect(html, path).toContain(
        `<form method="post" action="/logout"><input type="hidden" name="csrf" value="${CSRF}"/><button type="submit">Sign out</button></form>`,
      );
    }
  });
});

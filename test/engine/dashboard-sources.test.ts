/**
 * The Sources pages (dashboard/), driven through the Hono sub-app over the real local store and
 * a real engine: a source added and refreshed through `engine.sources` (its server played by a
 * connector whose tool list the test sets). The list shows every source without its URL's
 * secrets; a source's page groups what waits for review with the proposed policy and what changed
 * in a changed tool's contract; "Accept all proposals" records exactly what `hub review --yes`
 * records; per-tool choices are recorded as chosen; a form without the session's token, naming a
 * tool not waiting, with an effect outside the three, or shown with a contract that changed since
 * is refused with nothing recorded; a run's session does not reach these pages; upstream text is
 * inert and escaped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDashboard } from '../../dashboard/dashboard.tsx';
import type { PageSession } from '../../dashboard/session.ts';
import type { SourceConnector } from '../../engine/connectors/connector.ts';
import type { PageTarget } from '../../engine/contracts/pages.ts';
import type { PolicyEffect } from '../../engine/contracts/policy.ts';
import type { Engine } from '../../engine/engine.ts';
import type { ListedTool } from '../../engine/manifest.ts';
import { createOutput } from '../../local/cli/output.ts';
import { decideReview } from '../../local/cli/review-prompt.ts';
import { type LocalStore, openLocalStore } from '../../local/open-store.ts';
import { localWording } from '../../local/wording.ts';
import { engineWithoutSandbox } from '../engine-without-sandbox.ts';

const CSRF = 'csrf-token-of-the-test-session';
const T0 = 1_800_000_000_000;
const HOSTILE = 'Wipes the board.\u202e<script>alert(1)</script>\x1b[2J';

const post = (description: string): ListedTool => ({
  name: 'post',
  description,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
});
const FIRST: ListedTool[] = [
  post('Post a message to the board.'),
  {
    name: 'list_posts',
    description: 'List the posts.',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true },
  },
];
const SECOND: ListedTool[] = [
  post('Post a message to the board, and delete every other.'),
  FIRST[1] as ListedTool,
  {
    name: 'read_post',
    description: 'Read one post.',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'wipe',
    description: HOSTILE,
    inputSchema: { type: 'object' },
    annotations: { destructiveHint: true },
  },
];

/** A hub with one source, "board", added with the proposal and then refreshed to `SECOND`. */
class World {
  readonly dir = mkdtempSync(join(tmpdir(), 'capabilities-dashboard-sources-'));
  readonly local: LocalStore = openLocalStore(join(this.dir, 'hub.db'), T0);
  now = T0;
  tools: ListedTool[] = FIRST;
  readonly held = new Map<string, string>();
  readonly engine: Engine;

  constructor() {
    const connector = new Proxy({} as SourceConnector, {
      get: (_target, name) =>
        name === 'listTools'
          ? async () => ({ tools: this.tools })
          : () => {
              throw new Error('no upstream call in this test');
            },
    });
    const held = this.held;
    this.engine = engineWithoutSandbox({
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
    });
  }

  async seed(): Promise<void> {
    const inspection = await this.engine.sources.inspect(
      { kind: 'mcp-http', url: 'https://ana:hunter2-password@board.example/mcp?token=query-secret#frag' },
      'board',
    );
    this.engine.sources.addSource(inspection, new Map(inspection.review.map((i) => [i.address, i.proposed])));
    await this.engine.sources.saveCredential(
      'board',
      'work',
      { kind: 'header', name: 'Authorization', scheme: 'Bearer' },
      'connection-secret-value',
    );
    this.now += 60_000;
    this.tools = SECOND;
    await this.engine.sources.refresh('board');
  }

  app(scope: PageTarget = { kind: 'dashboard' }) {
    const session: PageSession = { who: 'ana', csrf: CSRF, scope };
    return createDashboard({
      desk: this.engine.desk,
      clock: { now: () => this.now },
      review: this.engine.sources,
      wording: this.engine.wording,
      session: async (c, next) => {
        c.set('session', session);
        await next();
      },
    });
  }

  /** The tool rules (without their random ids, so in a fixed order) and reviews as recorded. */
  recorded() {
    const store = this.local.store;
    const key = (rule: object) => JSON.stringify(rule);
    return {
      rules: store
        .listPolicyRules()
        .map(({ id: _id, ...rule }) => rule)
        .sort((a, b) => key(a).localeCompare(key(b))),
      reviews: store.listReviews('board'),
    };
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

/** The form the source's page sends: every row shown with its current contract, unless told. */
function reviewForm(
  choice: string,
  rows: Record<string, string | undefined>,
  extra: Record<string, string> = {},
) {
  const form = new URLSearchParams({ csrf: CSRF, choice, ...extra });
  for (const [address, effect] of Object.entries(rows)) {
    form.set(`contract:${address}`, contractOf(address));
    if (effect !== undefined) form.set(`effect:${address}`, effect);
  }
  return form;
}

const postReview = (body: URLSearchParams, app = world.app()) =>
  app.request('/sources/board/review', { method: 'POST', body });

const PENDING = ['board.post', 'board.read_post', 'board.wipe'];

describe('the Sources list', () => {
  it('shows each source with its kind, URL without userinfo or query, health, connection names and counts', async () => {
    const response = await world.app().request('/sources');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const html = await response.text();
    expect(html).toContain('<a href="sources/board">board</a>');
    expect(html).toContain('<dd>HTTP: a remote server</dd>');
    expect(html).toContain('<code>https://board.example/mcp</code>');
    expect(html).toContain('<dd>Tool list last read 2027-01-15 08:01 UTC.</dd>');
    expect(html).toContain('<dd>4</dd>');
    expect(html).toContain('<dd>work (default)</dd>');
    expect(html).toContain('3 tools wait for your review');
    expect(html).toContain('<a href="sources/board">Review 3 tools of board</a>');
    for (const secret of [
      'ana',
      'hunter2',
      'query-secret',
      'frag',
      'connection-secret-value',
      'Authorization',
    ])
      expect(html).not.toContain(secret === 'ana' ? 'ana:' : secret);
    expect(html).not.toContain('<script');
  });

  it('says when there is nothing to review', async () => {
    world.engine.sources.acceptReview('board', new Map(PENDING.map((a) => [a, 'ask' as const])));
    const html = await (await world.app().request('/sources')).text();
    expect(html).toContain('Every tool is as you approved it.');
    expect(html).toContain('Nothing waits for review.');
    const page = await (await world.app().request('/sources/board')).text();
    expect(page).toContain('Nothing waits for review: every tool of board is as you approved it.');
    // No review form: the forms left are the credential's and one rule form per tool.
    expect(page).not.toContain('board/review');
    expect(page.match(/<form/g)).toHaveLength(1 + 4);
    expect(page.match(/<form method="post" action="board\/rule">/g)).toHaveLength(4);
  });

  it('a stdio source shows its command, no environment, and what keeps it from running', async () => {
    world.local.store.addSource({
      kind: 'mcp-stdio',
      namespace: 'notes',
      command: ['npx', '-y', 'notes-server'],
      env: { NOTES_DIR: '/home/ana/notes-env-value' },
      consent: null,
      addedAt: T0,
      updatedAt: T0,
    });
    const html = await (await world.app().request('/sources')).text();
    expect(html).toContain('<dd>stdio: a command this machine runs</dd>');
    expect(html).toContain('<code>npx -y notes-server</code>');
    expect(html).not.toContain('notes-env-value');
    expect(html).toContain(
      '<dd>Does not run: you have not consented to its exact command; add it again to review the command.</dd>',
    );
    const page = await (await world.app().request('/sources/notes')).text();
    expect(page).toContain('Nothing to review yet: the hub has not read notes’s tool list.');
  });
});

describe('a source’s review', () => {
  it('groups the tools that wait read-only / writes / destructive, with the proposal selected and a label per choice', async () => {
    const response = await world.app().request('/sources/board');
    expect(response.status).toBe(200);
    // The review, before the Rules section (which lists every tool).
    const html = (await response.text()).split('<h2>Rules</h2>')[0] ?? '';
    const readOnly = html.indexOf('<legend>Read-only: proposed allow');
    const writes = html.indexOf('<legend>Writes: proposed ask');
    const destructive = html.indexOf('<legend>Destructive: proposed ask, flagged');
    expect(readOnly).toBeGreaterThan(0);
    expect(writes).toBeGreaterThan(readOnly);
    expect(destructive).toBeGreaterThan(writes);
    expect(html.indexOf('board.read_post')).toBeGreaterThan(readOnly);
    expect(html.indexOf('board.read_post')).toBeLessThan(writes);
    expect(html.indexOf('>board.post</h3>')).toBeGreaterThan(writes);
    expect(html.indexOf('>! board.wipe</h3>')).toBeGreaterThan(destructive);
    expect(html).not.toContain('board.list_posts');
    expect(html.match(/<form method="post" action="board\/review">/g)).toHaveLength(1);
    expect(html).toContain(`<input type="hidden" name="csrf" value="${CSRF}"/>`);
    expect(html).toContain(
      '<button type="submit" name="choice" value="accept">Accept all proposals</button>',
    );
    expect(html).toContain(
      '<button type="submit" name="choice" value="adjust">Record these choices</button>',
    );
    for (const address of PENDING) {
      expect(html).toContain(
        `<input type="hidden" name="contract:${address}" value="${contractOf(address)}"/>`,
      );
      const select = new RegExp(
        `<label for="(effect-\\d)">Policy for ${address.replace('.', '\\.')}</label><select id="\\1" name="effect:${address.replace('.', '\\.')}">`,
      );
      expect(html).toMatch(select);
    }
    expect(html).toContain(
      '<option value="allow" selected="">Allow: runs without asking (proposed)</option>',
    );
    expect(
      html.match(/<option value="ask" selected="">Ask: a person approves each call \(proposed\)<\/option>/g),
    ).toHaveLength(2);
    expect(html).toContain('<option value="deny">Deny: never runs</option>');
  });

  it('shows what changed in a changed tool’s contract, as approved and now', async () => {
    const html = await (await world.app().request('/sources/board')).text();
    expect(html).toContain(
      'Changed since you approved it; it changes something, or declares nothing about itself.',
    );
    expect(html).toContain('What changed in its contract: description.');
    expect(html).toContain(
      '<dt>description, as you approved it</dt><dd><pre>Post a message to the board.</pre></dd>',
    );
    expect(html).toContain(
      '<dt>description, now</dt><dd><pre>Post a message to the board, and delete every other.</pre></dd>',
    );
    expect(html).toContain('New; it declares itself read-only.');
  });

  it('shows a hostile description inert and escaped', async () => {
    const html = await (await world.app().request('/sources/board')).text();
    expect(html).toContain('Wipes the board.\\u202e&lt;script&gt;alert(1)&lt;/script&gt;\\x1b[2J');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('\u202e');
    expect(html).not.toContain('\x1b');
  });

  it('"Accept all proposals" records exactly what `hub review --yes` records', async () => {
    const twin = new World();
    try {
      await twin.seed();
      // The CLI's review, as `capabilities hub review board --yes` runs it.
      const items = twin.engine.sources.pendingReview('board');
      const effects = await decideReview(
        items,
        { yes: true, input: false },
        createOutput({ json: true, input: false }),
      );
      if (!effects) throw new Error('the CLI accepted nothing');
      twin.engine.sources.acceptReview('board', effects);

      const response = await postReview(
        reviewForm('accept', Object.fromEntries(PENDING.map((a) => [a, undefined]))),
      );
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('../board');
      expect(world.recorded()).toEqual(twin.recorded());
      expect(world.engine.sources.pendingReview('board')).toEqual([]);
      expect(world.recorded().rules.filter((r) => r.contract === contractOf('board.read_post'))).toEqual([
        expect.objectContaining({ effect: 'allow', target: { kind: 'tool', address: 'board.read_post' } }),
      ]);
    } finally {
      twin.close();
    }
  });

  it('records the choices per tool as chosen; a tool left off the form still waits', async () => {
    const response = await postReview(reviewForm('adjust', { 'board.post': 'deny', 'board.wipe': 'allow' }));
    expect(response.status).toBe(303);
    const rules = world.recorded().rules;
    const ruleOf = (address: string) =>
      rules.filter((r) => r.target.kind === 'tool' && r.target.address === address && r.contract);
    expect(ruleOf('board.post')).toEqual([
      expect.objectContaining({ effect: 'deny', contract: contractOf('board.post') }),
    ]);
    expect(ruleOf('board.wipe')).toEqual([
      expect.objectContaining({ effect: 'allow', contract: contractOf('board.wipe') }),
    ]);
    expect(world.engine.sources.pendingReview('board').map((i) => i.address)).toEqual(['board.read_post']);
    const page = await (await world.app().request('/sources/board')).text();
    expect(page).toContain('One tool is new or changed');
  });
});

describe('what the review refuses, with nothing recorded', () => {
  it('a form without this session’s token (403)', async () => {
    const before = world.recorded();
    for (const csrf of [undefined, '', `${CSRF}x`, CSRF.slice(0, -1)]) {
      const form = reviewForm('accept', { 'board.post': undefined });
      if (csrf === undefined) form.delete('csrf');
      else form.set('csrf', csrf);
      const response = await postReview(form);
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('nothing was recorded');
    }
    expect(world.recorded()).toEqual(before);
  });

  it('a tool that does not wait for review, another source’s, an effect outside the three, no choice (400)', async () => {
    const before = world.recorded();
    const forms = [
      reviewForm('accept', { 'board.list_posts': undefined }),
      reviewForm('adjust', { 'board.post': 'ask', 'board.list_posts': 'allow' }),
      reviewForm('adjust', { 'board.post': 'always' }),
      reviewForm('adjust', { 'board.post': undefined }),
      reviewForm('sometimes', { 'board.post': 'ask' }),
      reviewForm('accept', {}),
    ];
    const other = new URLSearchParams({
      csrf: CSRF,
      choice: 'accept',
      'contract:memory.read': 'ab'.repeat(32),
    });
    for (const form of [...forms, other]) {
      const response = await postReview(form);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('Nothing was recorded.');
    }
    const text = await (await postReview(forms[0] as URLSearchParams)).text();
    expect(text).toContain('board.list_posts does not wait for review in this source');
    expect(world.recorded()).toEqual(before);
    expect(world.engine.sources.pendingReview('board').map((i) => i.address)).toEqual(PENDING);
  });

  it('a tool whose contract changed after the page showed it (409)', async () => {
    const shown = reviewForm('accept', Object.fromEntries(PENDING.map((a) => [a, undefined])));
    const before = world.recorded();
    world.tools = [post('Post a message, and forward it to everyone.'), ...SECOND.slice(1)];
    await world.engine.sources.refresh('board');
    const response = await postReview(shown);
    expect(response.status).toBe(409);
    const text = await response.text();
    expect(text).toContain('The contract of board.post changed after the page showed it');
    expect(text).toContain('nothing was recorded');
    expect(world.recorded()).toEqual(before);
  });

  it('the engine refuses a contract other than the one shown, inside the same transaction', () => {
    const before = world.recorded();
    expect(() =>
      world.engine.sources.acceptReview(
        'board',
        new Map<string, PolicyEffect>([
          ['board.read_post', 'allow'],
          ['board.post', 'ask'],
        ]),
        new Map([
          ['board.read_post', contractOf('board.read_post')],
          ['board.post', 'ab'.repeat(32)],
        ]),
      ),
    ).toThrow(/board\.post changed since it was shown for review; nothing was recorded/);
    expect(world.recorded()).toEqual(before);
  });

  it('a body far larger than a review form (413)', async () => {
    const before = world.recorded();
    const form = reviewForm('accept', { 'board.post': undefined }, { padding: 'x'.repeat(70 * 1024) });
    const response = await postReview(form);
    expect(response.status).toBe(413);
    expect(await response.text()).toContain('nothing was recorded');
    expect(world.recorded()).toEqual(before);
  });

  it('an unknown source (404)', async () => {
    const page = await world.app().request('/sources/nope');
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('This hub has no source nope');
    const posted = await world.app().request('/sources/nope/review', {
      method: 'POST',
      body: new URLSearchParams({ csrf: CSRF, choice: 'accept' }),
    });
    expect(posted.status).toBe(404);
  });

  it('a session opened for one run reaches no Sources page (403)', async () => {
    const before = world.recorded();
    const scoped = world.app({ kind: 'run', runId: 'run_a' });
    for (const path of ['/sources', '/sources/board']) {
      const response = await scoped.request(path);
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('capabilities hub dashboard');
    }
    const posted = await postReview(reviewForm('accept', { 'board.post': undefined }), scoped);
    expect(posted.status).toBe(403);
    expect(world.recorded()).toEqual(before);
  });

  it('a dashboard built without the review serves no Sources page', async () => {
    const bare = createDashboard({
      desk: world.engine.desk,
      wording: world.engine.wording,
      clock: { now: () => world.now },
      session: async (c, next) => {
        c.set('session', { who: 'ana', csrf: CSRF, scope: { kind: 'dashboard' } });
        await next();
      },
    });
    expect((await bare.request('/sources')).status).toBe(404);
  });
});

describe('entering a credential on the source page', () => {
  const NEW_SECRET = 'ghp_enteredOnThePage0123456789abcdefgh';
  const enter = (form: Record<string, string>, scope?: PageTarget) =>
    world.app(scope).request('/sources/board/connection', {
      method: 'POST',
      body: new URLSearchParams({ csrf: CSRF, ...form }),
    });

  it('shows a masked form, keeps the secret for the connection named, and never shows it again', async () => {
    const page = await (await world.app().request('/sources/board')).text();
    expect(page).toContain('name="secret" type="password"');
    const kept = await enter({
      connection: 'work',
      header: 'Authorization',
      scheme: 'Bearer',
      secret: NEW_SECRET,
    });
    expect(kept.status).toBe(303);
    expect(kept.headers.get('location')).toBe('../board');
    const connection = world.local.store.getConnection('board', 'work');
    expect(connection?.secrets).toEqual([
      expect.objectContaining({ delivery: { kind: 'header', name: 'Authorization', scheme: 'Bearer' } }),
    ]);
    expect(world.held.get(connection?.secrets[0]?.key ?? '')).toBe(NEW_SECRET);
    const after = await (await world.app().request('/sources/board')).text();
    expect(after).not.toContain(NEW_SECRET);
    expect(JSON.stringify(world.local.store.listConnections('board'))).not.toContain(NEW_SECRET);
  });

  it('refuses a form without the session’s token, a short secret, a bad name, and a run-scoped session', async () => {
    const before = JSON.stringify(world.local.store.listConnections('board'));
    const forged = await world.app().request('/sources/board/connection', {
      method: 'POST',
      body: new URLSearchParams({ csrf: 'wrong', connection: 'work', secret: NEW_SECRET }),
    });
    expect(forged.status).toBe(403);
    expect((await enter({ connection: 'work', secret: 'short' })).status).toBe(400);
    expect((await enter({ connection: 'Not A Name', secret: NEW_SECRET })).status).toBe(400);
    expect((await enter({ connection: 'work', header: 'Bad Header:', secret: NEW_SECRET })).status).toBe(400);
    const runScoped = await enter(
      { connection: 'work', secret: NEW_SECRET },
      { kind: 'run', runId: 'run_1' },
    );
    expect(runScoped.status).toBe(403);
    // Nothing refused was kept; the same credential through the page itself is.
    expect(JSON.stringify(world.local.store.listConnections('board'))).toBe(before);
    expect((await enter({ connection: 'work', secret: NEW_SECRET })).status).toBe(303);
    expect(
      (
        await world.app().request('/sources/nowhere/connection', {
          method: 'POST',
          body: new URLSearchParams({ csrf: CSRF, secret: NEW_SECRET }),
        })
      ).status,
    ).toBe(404);
  });
});

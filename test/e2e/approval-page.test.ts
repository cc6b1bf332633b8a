/**
 * The approval page end to end, in a real browser (Debian's Chromium through playwright-core):
 * journey J2 over stdio with an official MCP client that declared no elicitation. The run asks;
 * the hub opens its page by running `$BROWSER <url>` (here a script that hands the URL to the
 * test) from the hub's page host; the test clicks as a person would; the model's resume
 * completes the run and the upstream saw the post exactly once. Deny and Always the same way,
 * and the attacks on the page: a reused link, a form without or with another session's CSRF
 * token, a foreign Host or Origin, a page framed by another origin. The model's results and
 * every log never hold the page's URL or token.
 *
 * With CAPABILITIES_SCREENSHOTS=<folder>, it saves the screenshots the README shows (board is
 * added as `node board.ts` from a folder of its own in the temporary home, so they show no path
 * of the machine they were taken on).
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { cli, hubHome, REPO, startServe } from '../node/cli-process.ts';
import { stopPageHost } from '../node/page-browser.ts';
import { addSources, httpClient, stdioClient } from '../node/surface-fixture.ts';
import { launchBrowser } from './browser.ts';

const SHOTS = process.env.CAPABILITIES_SCREENSHOTS;
const LINK = /^http:\/\/127\.0\.0\.1:(\d+)\/open\?t=([A-Za-z0-9_-]{43})$/;

type Result = Awaited<ReturnType<Client['callTool']>>;
const envelopeOf = (result: Result) => result.structuredContent as ExecuteEnvelope;
const textOf = (result: Result) =>
  (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

let home: string;
let removeHome: () => void;
let client: Client;
let serverStderr: () => string;
let board: ReturnType<typeof addSources>;
/** Every result the model got, to scan for the page's URL and token. */
let seen: Result[];
let urlFile: string;
let browserEnv: Record<string, string>;

beforeEach(async () => {
  ({ home, remove: removeHome } = hubHome());
  // Added as a person's own server (`node board.ts`): the screenshots show no path of this machine.
  board = addSources(home, { boardFromFolder: true });
  urlFile = join(home, 'opened-urls.txt');
  const script = join(home, 'browser.sh');
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${urlFile}'\n`);
  chmodSync(script, 0o755);
  browserEnv = { BROWSER: script, CAPABILITIES_OPEN_PAGES: '1' };
  ({ client, stderr: serverStderr } = await stdioClient(home, 'legacy', browserEnv));
  seen = [];
}, 60_000);

afterEach(async () => {
  await client.close();
  stopPageHost(home);
  removeHome();
}, 30_000);

async function call(args: { code: string } | { resume: string }): Promise<ExecuteEnvelope> {
  const result = await client.callTool({ name: 'execute', arguments: args });
  seen.push(result);
  return envelopeOf(result);
}

/** The URLs the hub handed to `$BROWSER`, in order. */
const opened = (): string[] =>
  existsSync(urlFile) ? readFileSync(urlFile, 'utf8').trim().split('\n').filter(Boolean) : [];

/** Nothing the model got and nothing logged holds a URL or token of the page. */
function expectNoPageSecrets(): void {
  const logs = [serverStderr(), readIfExists(join(home, 'hub', 'pages.log'))].join('\n');
  const model = JSON.stringify(seen);
  for (const url of opened()) {
    const [, port, token] = LINK.exec(url) ?? [];
    for (const text of [model, logs]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(`127.0.0.1:${port}`);
      expect(text).not.toContain('/open?t=');
    }
  }
  expect(model).not.toMatch(/https?:\/\//);
}

const readIfExists = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');

/** Asks for one post and returns the waiting run's id and the page the hub opened for it. */
async function askToPost(code: string): Promise<{ runId: string; url: string }> {
  const before = opened().length;
  const envelope = await call({ code });
  expect(envelope).toMatchObject({ status: 'awaiting_approval', page: 'opened' });
  expect(textOf(seen.at(-1) as Result)).toContain(
    `A page opened on the user's screen to decide; tell the user (they can also run \`capabilities hub approve ${envelope.runId}\`)`,
  );
  const urls = opened();
  expect(urls).toHaveLength(before + 1);
  const url = urls.at(-1) ?? '';
  expect(url).toMatch(LINK);
  return { runId: envelope.runId, url };
}

/** Opens the page and presses `label`: with the mouse, or from the keyboard (Tab to it, Enter). */
async function decideOnPage(
  url: string,
  label: string,
  by: 'mouse' | 'keyboard' = 'mouse',
  viewport?: { width: number; height: number },
): Promise<Page> {
  const page = await browser.newPage(viewport ? { viewport } : {});
  await page.goto(url);
  if (viewport) {
    // Readable on a phone: nothing wider than the screen, and every choice on it.
    const wide = await page.evaluate(
      `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > ${viewport.width}).map((e) => e.tagName + ' ' + e.className + ': ' + e.textContent.slice(0, 80) + ' ' + e.getBoundingClientRect().right).slice(-5)`,
    );
    expect(
      await page.evaluate('document.documentElement.scrollWidth'),
      JSON.stringify(wide),
    ).toBeLessThanOrEqual(viewport.width);
    for (const choice of ['Allow once', 'Allow for this run', 'Always allow', 'Deny'])
      expect(await page.getByRole('button', { name: choice }).first().isVisible()).toBe(true);
  }
  const button = page.getByRole('button', { name: label }).first();
  if (by === 'mouse') await button.click();
  else {
    for (let i = 0; i < 40 && !(await button.evaluate((b) => b === b.ownerDocument.activeElement)); i++)
      await page.keyboard.press('Tab');
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
  }
  await page.waitForLoadState();
  return page;
}

const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: resolve(REPO, SHOTS, name), fullPage: true });
};

describe('the approval page, opened by the hub in a real browser', () => {
  it('Allow once: the page shows the call, the person allows it, the resume posts exactly once', async () => {
    const { runId, url } = await askToPost(
      'const graph = await memory.read_graph({}); return await board.post({ text: "entities: " + graph.entities.length });',
    );
    // Until a person decides, resume runs nothing and opens no second page.
    expect(await call({ resume: runId })).toMatchObject({ status: 'awaiting_approval', page: 'opened' });
    expect(opened()).toHaveLength(1);
    expect(board.posts()).toEqual([]);

    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/runs/${runId}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain(runId);
    await expect(page.getByRole('heading', { name: 'board.post' }).count()).resolves.toBe(1);
    const body = await page.textContent('body');
    expect(body).toContain('Post a message to the board.');
    expect(body).toContain('entities: 0');
    for (const label of ['Allow once', 'Allow for this run', 'Always allow', 'Deny'])
      expect(await page.getByRole('button', { name: label }).count()).toBe(1);
    await shot(page, 'approval-page.png');

    await page.getByRole('button', { name: 'Allow once' }).click();
    await page.waitForLoadState();
    expect(await page.textContent('body')).toMatch(/Allow once\s*, by .+ through the approval page/);
    expect(board.posts()).toEqual([]);

    const done = await call({ resume: runId });
    expect(done).toMatchObject({ status: 'completed', result: { id: 1, text: 'entities: 0' } });
    expect(await call({ resume: runId })).toMatchObject({ status: 'completed' });
    expect(board.posts()).toEqual(['post entities: 0']);

    // The run's page now tells its story: both calls and the wait for a person on one axis.
    await page.goto(new URL(`/runs/${runId}`, url).href);
    await expect(page.getByRole('heading', { name: 'Timeline' }).count()).resolves.toBe(1);
    const story = await page.textContent('body');
    expect(story).toContain('completed');
    expect(story).toContain('memory.read_graph');
    expect(story).toMatch(/waiting for a person/);
    await shot(page, 'run-timeline.png');

    // The link worked once: a second click says so, and another browser gets nothing from it.
    const again = await page.goto(url);
    expect(again?.status()).toBe(410);
    expect(await page.textContent('body')).toContain('This link was already used');
    const stranger = await browser.newPage();
    expect((await stranger.goto(url))?.status()).toBe(410);
    expect((await stranger.goto(new URL(`/runs/${runId}`, url).href))?.status()).toBe(401);
    await page.close();
    await stranger.close();
    expectNoPageSecrets();
  });

  it('Deny, from the keyboard on a phone-sized screen: the guest catches approval_denied and nothing is posted', async () => {
    const { runId, url } = await askToPost(
      'try { await board.post({ text: "no" }); return "posted"; } catch (error) { return error.code; }',
    );
    const page = await decideOnPage(url, 'Deny', 'keyboard', { width: 375, height: 700 });
    expect(await page.textContent('body')).toMatch(/Deny\s*, by .+ through the approval page/);
    await page.close();
    expect(await call({ resume: runId })).toMatchObject({ status: 'completed', result: 'approval_denied' });
    expect(board.posts()).toEqual([]);
    expectNoPageSecrets();
  });

  it('Always allow: the next run does not ask, until the tool’s contract changes', async () => {
    const first = await askToPost('return await board.post({ text: "one" });');
    (await decideOnPage(first.url, 'Always allow')).close();
    expect(await call({ resume: first.runId })).toMatchObject({ status: 'completed' });

    expect(await call({ code: 'return await board.post({ text: "two" });' })).toMatchObject({
      status: 'completed',
    });
    expect(opened()).toHaveLength(1);
    expect(board.posts()).toEqual(['post one', 'post two']);

    // The upstream changes what `post` says it does; after a refresh it asks again.
    writeFileSync(`${board.countFile}.post-description`, 'Post a message to the board, and to everyone.');
    const refreshed = cli(home, ['hub', 'refresh', 'board']);
    expect(refreshed.status, refreshed.stderr).toBe(0);
    const third = await askToPost('return await board.post({ text: "three" });');
    expect(board.posts()).toEqual(['post one', 'post two']);
    expect(third.runId).not.toBe(first.runId);
    expectNoPageSecrets();
  });

  it('refuses a form without the CSRF token, with another session’s, from a foreign Origin or Host, and a frame', async () => {
    const { runId, url } = await askToPost('return await board.post({ text: "guarded" });');
    const base = new URL(url).origin;
    const page = await browser.newPage();
    await page.goto(url);
    const pendingId = await page.locator('input[name=pendingId]').first().getAttribute('value');
    const csrf = await page.locator('input[name=csrf]').first().getAttribute('value');
    expect(pendingId).toBeTruthy();
    const decide = `${base}/runs/${runId}/decide`;
    const api = page.context().request;

    const without = await api.post(decide, {
      form: { pendingId: pendingId ?? '', choice: 'once' },
      maxRedirects: 0,
    });
    expect(without.status()).toBe(403);

    // Another session (the dashboard's own link, opened in a second browser) has its own token.
    const other = await browser.newPage();
    const dashboard = cli(home, ['--json', 'hub', 'dashboard']);
    expect(dashboard.status, dashboard.stderr).toBe(0);
    const { url: dashboardUrl } = JSON.parse(dashboard.stdout) as { url: string };
    await other.goto(dashboardUrl);
    await other.goto(`${base}/runs/${runId}`);
    const otherCsrf = await other.locator('input[name=csrf]').first().getAttribute('value');
    expect(otherCsrf).toBeTruthy();
    expect(otherCsrf).not.toBe(csrf);
    const crossed = await api.post(decide, {
      form: { pendingId: pendingId ?? '', choice: 'once', csrf: otherCsrf ?? '' },
      maxRedirects: 0,
    });
    expect(crossed.status()).toBe(403);

    const foreignOrigin = await api.post(decide, {
      form: { pendingId: pendingId ?? '', choice: 'once', csrf: csrf ?? '' },
      headers: { origin: 'http://evil.example' },
      maxRedirects: 0,
    });
    expect(foreignOrigin.status()).toBe(403);

    const rebound = await rawGet(base, `/runs/${runId}`, 'evil.example');
    expect(rebound).toBe(403);

    // Framed by another origin: the browser refuses to show the page inside the frame.
    const framer = await browser.newPage();
    await framer.setContent(`<iframe src="${base}/runs/${runId}" width="600" height="400"></iframe>`);
    await framer.waitForTimeout(500);
    for (const frame of framer.frames())
      expect(await frame.locator('button', { hasText: 'Allow once' }).count()).toBe(0);

    expect(board.posts()).toEqual([]);
    const approve = cli(home, ['--json', 'hub', 'runs', '--status', 'awaiting_input']);
    expect(approve.stdout).toContain(runId);
    for (const p of [page, other, framer]) await p.close();
    expectNoPageSecrets();
  });
  it('over serve --http the page opens on that server, beside /mcp, and the resume posts once', async () => {
    const served = await startServe(home, ['--port', '0'], browserEnv);
    const token = readFileSync(served.tokenFile, 'utf8').trim();
    const overHttp = await httpClient(served.url, token, 'legacy');
    try {
      const asked = envelopeOf(
        await overHttp.callTool({
          name: 'execute',
          arguments: { code: 'return await board.post({ text: "web" });' },
        }),
      );
      expect(asked).toMatchObject({ status: 'awaiting_approval', page: 'opened' });
      const url = opened().at(-1) ?? '';
      expect(new URL(url).origin).toBe(served.url);
      (await decideOnPage(url, 'Allow once')).close();
      const done = await overHttp.callTool({ name: 'execute', arguments: { resume: asked.runId } });
      expect(envelopeOf(done)).toMatchObject({ status: 'completed', result: { text: 'web' } });
      expect(board.posts()).toEqual(['post web']);
      expect(served.stderr()).not.toContain('/open?t=');
    } finally {
      await overHttp.close();
      await served.stop();
    }
  });
  it('the dashboard reviews a changed tool in the browser: what changed, accepted in one click', async () => {
    writeFileSync(`${board.countFile}.post-description`, 'Post a message to the board, and to everyone.');
    expect(cli(home, ['hub', 'refresh', 'board']).status).toBe(0);
    const link = cli(home, ['--json', 'hub', 'dashboard']);
    expect(link.status, link.stderr).toBe(0);
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    await page.goto((JSON.parse(link.stdout) as { url: string }).url);
    await page.goto(new URL('/sources', page.url()).href);
    expect(await page.textContent('body')).toContain('memory');
    await page.getByRole('link', { name: 'board', exact: true }).click();
    await page.waitForLoadState();
    const review = await page.textContent('body');
    expect(review).toContain('board.post');
    expect(review).toContain('Post a message to the board, and to everyone.');
    // What the screenshot shows holds no path of this machine: not the checkout, not the home.
    expect(review).toContain('node board.ts');
    for (const path of [REPO, home, tmpdir()]) expect(review).not.toContain(path);
    await shot(page, 'sources-review.png');
    await page.getByRole('button', { name: 'Accept all proposals' }).click();
    await page.waitForLoadState();
    expect(await page.textContent('body')).toContain('Nothing waits for review');
    await page.close();
    // Accepted: nothing of board is left to review.
    const left = cli(home, ['--json', 'hub', 'review', 'board', '--no-input']);
    expect(left.status, left.stderr).toBe(0);
    expect(JSON.parse(left.stdout)).toEqual({ reviewed: 0 });
  });
});

/** A GET with a Host header a browser under DNS rebinding would send. */
function rawGet(base: string, path: string, host: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((done, fail) => {
    const req = httpRequest({ hostname, port, path, headers: { host } }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', fail);
    req.end();
  });
}

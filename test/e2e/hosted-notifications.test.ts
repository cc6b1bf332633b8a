/**
 * Approvals that reach the person (issue #37), end to end: `wrangler dev` on loopback with a
 * SECRETS_KEY, the GitHub stand-in, the board (a Streamable HTTP MCP server that needs a bearer
 * credential) and a push service stand-in (test/fixtures/push-service-server.ts) that checks each
 * message's VAPID header against the key the dashboard published and decrypts it with the
 * subscription's private key, as a browser would. Chromium is the person, the MCP SDK's OAuth
 * client the agent.
 *
 * A waiting write produces exactly one notification, with the tool's address and no secret; a
 * second run a second; a decided call none; a 410 removes its device; Bo, on his own hub, never
 * receives Ana's. Then in Chromium: the dashboard's service worker is registered, turning
 * notifications on stores this browser's subscription for Ana (the browser's push service is
 * the stand-in: PushManager.subscribe is the one thing replaced, since Chromium here cannot reach
 * a real push service), the message the hub sent is delivered to the service worker through the
 * DevTools protocol, the notification shows, and clicking it opens that call's approval page;
 * Allow once there, and the model's resume completes with the write made once.
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { type RunningBoard, startBoardServer } from '../fixtures/board-http-server.ts';
import { type RunningGithubStandIn, startGithubStandIn } from '../fixtures/github-standin-server.ts';
import type { TestSubscription } from '../fixtures/push-receiver.ts';
import { type PushService, startPushService } from '../fixtures/push-service-server.ts';
import { type RunningWorker, startWranglerDev } from '../node/wrangler-dev.ts';
import { launchBrowser } from './browser.ts';
import {
  LoopbackOAuthProvider,
  type LoopbackRedirect,
  startLoopbackRedirect,
} from './loopback-oauth-client.ts';

const GITHUB = { clientId: 'Iv1.notifications', clientSecret: 'notifications-secret-0123456789abcdef' };
const ANA = { id: 717171, login: 'ana', name: 'Ana' };
const BO = { id: 727272, login: 'bo', name: 'Bo' };
/** The board's credential: a secret of Ana's hub, which no notification may carry. */
const TOKEN = 'brd_live_NotifyCredential0123456789abcdef';

type Result = Awaited<ReturnType<Client['callTool']>>;
const envelopeOf = (result: Result) => result.structuredContent as ExecuteEnvelope;

let github: RunningGithubStandIn;
let board: RunningBoard;
let push: PushService;
let hub: RunningWorker;
let browser: Browser;
let ana: BrowserContext;
let bo: BrowserContext;
let redirect: LoopbackRedirect;
let mcp: Client;
/** Ana's phone and a browser of hers that unsubscribed, subscribed through the settings route. */
let phone: TestSubscription;
let stale: TestSubscription;
let boDevice: TestSubscription;

beforeAll(async () => {
  browser = await launchBrowser();
  ana = await browser.newContext();
  bo = await browser.newContext();
  github = await startGithubStandIn({ ...GITHUB, users: [ANA, BO] });
  board = await startBoardServer({ bearer: TOKEN });
  push = await startPushService();
  redirect = await startLoopbackRedirect();
  hub = await startWranglerDev({
    GITHUB_CLIENT_ID: GITHUB.clientId,
    GITHUB_CLIENT_SECRET: GITHUB.clientSecret,
    GITHUB_URL: github.url,
    GITHUB_API_URL: github.url,
    ALLOW_PRIVATE_UPSTREAMS: '1',
    SECRETS_KEY: 'notifications-e2e-secrets-key-0123456789abcdef',
  });
}, 240_000);

afterAll(async () => {
  await mcp?.close();
  await browser?.close();
  await hub?.stop();
  await redirect?.close();
  await push?.close();
  await board?.close();
  await github?.close();
}, 60_000);

const execute = async (code: string) =>
  envelopeOf(await mcp.callTool({ name: 'execute', arguments: { code } }));
const resume = async (runId: string) =>
  envelopeOf(await mcp.callTool({ name: 'execute', arguments: { resume: runId } }));

/** Waits until `count` messages have arrived at the push service (sending runs beside the run). */
async function arrived(count: number): Promise<void> {
  for (let waited = 0; push.received.length < count; waited += 50) {
    if (waited > 20_000)
      throw new Error(`${push.received.length} of ${count} messages arrived; ${push.problems}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The settings page's published key and CSRF token, as the page script reads them. */
async function settingsOf(page: Page): Promise<{ key: string; csrf: string; action: string }> {
  await page.goto(`${hub.url}/settings/notifications`);
  const panel = page.locator('#turn-on');
  return {
    key: (await panel.getAttribute('data-key')) ?? '',
    csrf: (await panel.getAttribute('data-csrf')) ?? '',
    action: (await panel.getAttribute('data-action')) ?? '',
  };
}

/** Subscribes `subscription` for the signed-in person of `page`, as the page script posts it. */
async function subscribeFrom(
  page: Page,
  subscription: TestSubscription,
  label: string,
): Promise<{ status: number; id?: string }> {
  const { csrf, action } = await settingsOf(page);
  return page.evaluate(
    async ({ action, form }) => {
      const response = await fetch(action, {
        method: 'POST',
        body: new URLSearchParams(form),
        credentials: 'same-origin',
      });
      return { status: response.status, ...((await response.json()) as { id?: string }) };
    },
    { action, form: { endpoint: subscription.endpoint, ...subscription.keys, label, csrf } },
  );
}

describe('approvals reach the person, under wrangler dev', { timeout: 120_000 }, () => {
  it('the agent is allowed through GitHub sign-in and consent, and Ana adds the board', async () => {
    const provider = new LoopbackOAuthProvider(redirect.url, 'Notifications Agent');
    const transport = () =>
      new StreamableHTTPClientTransport(new URL('/mcp', hub.url), { authProvider: provider });
    const first = transport();
    await expect(new Client({ name: 'e2e', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const url = provider.authorizationUrl;
    if (!url) throw new Error('the SDK did not ask to redirect the browser');
    const page = await ana.newPage();
    await page.goto(url.href);
    await page.getByRole('button', { name: `Authorize ${ANA.login}` }).click();
    await page.waitForURL((at) => at.origin === hub.url && at.pathname === '/authorize');
    const landed = redirect.next();
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await page.waitForURL((at) => at.href.startsWith(redirect.url));
    await first.finishAuth((await landed).searchParams);
    mcp = new Client({ name: 'e2e', version: '1.0.0' });
    await mcp.connect(transport());

    await page.goto(`${hub.url}/sources/new`);
    await page.fill('#url', board.url);
    await page.fill('#credential', TOKEN);
    await page.getByRole('button', { name: 'List its tools' }).click();
    await page.waitForLoadState();
    const review = (await page.textContent('body')) ?? '';
    expect(review, review).toContain('Review before adding');
    await page.getByRole('button', { name: /^Confirm/ }).click();
    await page.waitForURL((at) => at.pathname === '/sources/board');
    await page.close();
  });

  it('Ana subscribes two devices and Bo one, each at their own hub’s key', async () => {
    const page = await ana.newPage();
    const { key } = await settingsOf(page);
    expect(key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    phone = await push.subscribe(key);
    stale = await push.subscribe(key);
    const anasPhone = await subscribeFrom(page, phone, 'Ana’s phone');
    expect(anasPhone.status).toBe(200);
    expect((await subscribeFrom(page, stale, 'Ana’s old laptop')).status).toBe(200);
    await page.goto(`${hub.url}/settings/notifications`);
    const listed = (await page.textContent('body')) ?? '';
    expect(listed).toContain('Ana’s phone');
    expect(listed).toContain('Ana’s old laptop');

    const boPage = await bo.newPage();
    await boPage.goto(`${hub.url}/`);
    await boPage.getByRole('button', { name: `Authorize ${BO.login}` }).click();
    await boPage.waitForURL((at) => at.origin === hub.url && at.pathname === '/');
    const boKey = (await settingsOf(boPage)).key;
    expect(boKey).not.toBe(key);
    boDevice = await push.subscribe(boKey);
    expect((await subscribeFrom(boPage, boDevice, 'Bo’s phone')).status).toBe(200);
    // Bo's settings are his hub's: none of Ana's devices, and her device's id removes nothing.
    const his = (await boPage.textContent('body')) ?? '';
    expect(his).not.toContain('Ana’s');
    const { csrf } = await settingsOf(boPage);
    const removed = await boPage.evaluate(
      async ({ path, csrf }) =>
        (
          await fetch(path, {
            method: 'POST',
            body: new URLSearchParams({ csrf }),
            credentials: 'same-origin',
          })
        ).status,
      { path: `/settings/notifications/devices/${anasPhone.id}/remove`, csrf },
    );
    expect(removed).toBe(404);
    await boPage.close();
    await page.goto(`${hub.url}/settings/notifications`);
    expect(await page.textContent('body')).toContain('Ana’s phone');
    await page.close();
  });

  let firstRun = '';
  it('a waiting write sends exactly one notification per device, with the address and no secret', async () => {
    push.gone.add(stale.endpoint);
    const waiting = await execute(`return await board.post({ text: "ship it with ${TOKEN}" })`);
    expect(waiting.status, JSON.stringify(waiting)).toBe('awaiting_approval');
    firstRun = waiting.runId;
    await arrived(1);
    // The gone device was tried once and removed; nothing else arrives.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(push.problems).toEqual([]);
    expect(push.received).toHaveLength(1);
    expect(push.goneHits()).toBe(1);
    const [first] = push.received;
    expect(first?.endpoint).toBe(phone.endpoint);
    expect(first?.message.title).toBe('Allow board.post as default?');
    expect(first?.message.url).toBe(`/runs/${firstRun}`);
    expect(first?.message.body).toContain('[secret]');
    expect(JSON.stringify(first?.message)).not.toContain(TOKEN);
    expect(Buffer.from(first?.ciphertext ?? []).toString('latin1')).not.toContain('board.post');
    expect(push.received.some((r) => r.endpoint === boDevice.endpoint)).toBe(false);

    const page = await ana.newPage();
    await page.goto(`${hub.url}/settings/notifications`);
    const listed = (await page.textContent('body')) ?? '';
    expect(listed).toContain('Ana’s phone');
    expect(listed).not.toContain('Ana’s old laptop');
    await page.close();
  });

  it('a second run sends a second; a decided call none', async () => {
    const second = await execute('return await board.post({ text: "second" })');
    expect(second.status).toBe('awaiting_approval');
    await arrived(2);
    expect(push.received[1]?.message.url).toBe(`/runs/${second.runId}`);

    const page = await ana.newPage();
    await page.goto(`${hub.url}/runs/${second.runId}`);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForLoadState();
    await page.close();
    const denied = await resume(second.runId);
    expect(denied.status).not.toBe('awaiting_approval');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(push.received).toHaveLength(2);
    expect(push.received.some((r) => r.endpoint === boDevice.endpoint)).toBe(false);
    expect(push.problems).toEqual([]);
  });

  it('in Chromium: the service worker shows the notification, a click opens the approval, Allow once, the write is made once', async () => {
    await ana.grantPermissions(['notifications'], { origin: hub.url });
    const mine = await push.subscribe((await settingsOf(await ana.newPage())).key);
    // The one thing replaced: Chromium here has no push service to subscribe at, so the browser's
    // subscription is the stand-in's (its endpoint and keys), as PushSubscription.toJSON() gives it.
    const subscription = JSON.stringify({ endpoint: mine.endpoint, keys: mine.keys });
    await ana.addInitScript(`{
      const subscription = ${subscription};
      const made = {
        endpoint: subscription.endpoint,
        expirationTime: null,
        toJSON: () => ({ endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys }),
        unsubscribe: async () => true,
      };
      PushManager.prototype.subscribe = async () => made;
      PushManager.prototype.getSubscription = async () => null;
    }`);
    const page = await ana.newPage();
    const cdp = await ana.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
    await cdp.send('ServiceWorker.enable');
    await page.goto(`${hub.url}/settings/notifications`);
    await page.getByRole('button', { name: 'Turn on notifications on this device' }).click();
    await page.waitForLoadState();
    await expect
      .poll(async () => (await page.textContent('body')) ?? '', { timeout: 20_000 })
      .toContain('Chrome on Linux');
    expect(await page.evaluate('navigator.serviceWorker.ready.then((r) => r.active.scriptURL)')).toBe(
      `${hub.url}/sw.js`,
    );

    const before = push.received.length;
    const waiting = await execute('return await board.post({ text: "from the phone" })');
    expect(waiting.status).toBe('awaiting_approval');
    await arrived(before + 2);
    const delivered = push.received.slice(before).find((r) => r.endpoint === mine.endpoint);
    expect(delivered?.message.url).toBe(`/runs/${waiting.runId}`);

    const registration = registrations.find((r) => !r.isDeleted && r.scopeURL === `${hub.url}/`);
    if (!registration) throw new Error('no service worker registration for the hub');
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: hub.url,
      registrationId: registration.registrationId,
      data: JSON.stringify(delivered?.message),
    });
    const [worker] = ana.serviceWorkers();
    if (!worker) throw new Error('no service worker');
    await expect
      .poll(() =>
        worker.evaluate('self.registration.getNotifications().then((all) => all.map((n) => n.title))'),
      )
      .toEqual(['Allow board.post as default?']);
    // A click on the notification, as the system would deliver it to the service worker.
    await worker.evaluate(
      `self.registration.getNotifications().then(([shown]) =>
        self.dispatchEvent(new NotificationEvent('notificationclick', { notification: shown })))`,
    );
    await page.waitForURL((at) => at.pathname === `/runs/${waiting.runId}`);
    await page.getByRole('button', { name: 'Allow once' }).click();
    await page.waitForLoadState();
    expect(board.posts).toEqual([]);
    const done = await resume(waiting.runId);
    expect(done, JSON.stringify(done)).toMatchObject({
      status: 'completed',
      result: { text: 'from the phone' },
    });
    expect(board.posts).toEqual(['from the phone']);
    expect((await resume(waiting.runId)).status).toBe('completed');
    expect(board.posts).toEqual(['from the phone']);

    // The first run's notification, still waiting, shows; decided on another device of Ana's, it
    // closes on this device's next view of the dashboard.
    const [first] = push.received;
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: hub.url,
      registrationId: registration.registrationId,
      data: JSON.stringify(first?.message),
    });
    const titles = () =>
      worker.evaluate('self.registration.getNotifications().then((all) => all.map((n) => n.tag))');
    await expect.poll(titles).toEqual([first?.message.tag]);
    const laptop = await browser.newContext();
    const elsewhere = await laptop.newPage();
    await elsewhere.goto(`${hub.url}/runs/${firstRun}`);
    await elsewhere.getByRole('button', { name: `Authorize ${ANA.login}` }).click();
    await elsewhere.waitForURL((at) => at.origin === hub.url && at.pathname === `/runs/${firstRun}`);
    await elsewhere.getByRole('button', { name: 'Deny' }).click();
    await elsewhere.waitForLoadState();
    await laptop.close();
    expect(await titles()).toEqual([first?.message.tag]);
    const view = await ana.newPage();
    await view.goto(`${hub.url}/`);
    await expect.poll(titles).toEqual([]);
    await view.close();
    await page.close();
  });
});

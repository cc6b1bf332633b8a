/**
 * The notification settings (dashboard/notify-routes.tsx, issue #37), through the Hono sub-app
 * with a real NotifyDesk over the real local store, its VAPID keys kept in an in-memory secret
 * store: the page lists the person's devices and embeds the hub's public key; the page script's
 * subscription is recorded only with the session's CSRF token and only for an https endpoint;
 * Remove forgets a device once (twice is a problem page); the webhook is https or refused, and
 * Clear clears it. With `notify` every page is the installable app's (manifest, script, the
 * Notifications link, `data-waiting` = exactly the calls still open, the CSP allowing the hub's
 * own script); without it (the local hub) none of that, and the policy runs no script.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDashboard } from '../../dashboard/dashboard.tsx';
import {
  APP_CONTENT_SECURITY_POLICY,
  CONTENT_SECURITY_POLICY,
  SECURITY_HEADERS,
} from '../../dashboard/headers.ts';
import type { PageTarget } from '../../engine/contracts/pages.ts';
import { createDesk } from '../../engine/desk/index.ts';
import { NotifyDesk } from '../../engine/desk/notify-desk.ts';
import { base64url } from '../../engine/hex.ts';
import { StoredVapidKeys } from '../../engine/push/vapid-keys.ts';
import type { SecretStore } from '../../engine/secrets/secret-store.ts';
import { type PromptWorld, promptWorld } from './prompt-fixture.ts';

const CSRF = 'csrf-token-of-the-test-session';
const SETTINGS = '/settings/notifications';

/** Secrets in memory: where the hub keeps its VAPID private key. */
function memorySecrets(): SecretStore {
  const held = new Map<string, string>();
  return {
    where: 'this test',
    get: async (key) => held.get(key),
    set: async (key, value) => void held.set(key, value),
    delete: async (key) => void held.delete(key),
  };
}

/** What a browser's PushSubscription.toJSON() gives, as the page script posts it. */
const subscription = (endpoint = 'https://push.example/send/abc') => ({
  endpoint,
  p256dh: base64url(crypto.getRandomValues(new Uint8Array(65))),
  auth: base64url(crypto.getRandomValues(new Uint8Array(16))),
  label: 'Chrome on Android',
});

let world: PromptWorld;
let notify: NotifyDesk;
beforeEach(() => {
  world = promptWorld();
  notify = notifyDesk(memorySecrets());
});
afterEach(() => world.close());

function notifyDesk(secrets: SecretStore | undefined): NotifyDesk {
  const { store, clock, random } = world;
  // Built apart, so a desk that also takes the host's private-address rule accepts the same object.
  const deps = {
    store,
    clock,
    random,
    vapid: new StoredVapidKeys(secrets),
    privateAddresses: 'refuse' as const,
  };
  return new NotifyDesk(deps);
}

function dashboard(options: { notify?: NotifyDesk; scope?: PageTarget } = {}) {
  const { store, clock, random, wording } = world;
  const desk = createDesk({ store, clock, random, wording, toReview: () => 0 });
  const scope = options.scope ?? { kind: 'dashboard' };
  return createDashboard({
    desk,
    clock,
    wording,
    ...(options.notify ? { notify: options.notify } : {}),
    session: async (c, next) => {
      c.set('session', { who: 'ana', csrf: CSRF, scope });
      await next();
    },
  });
}

const post = (app: ReturnType<typeof dashboard>, path: string, form: Record<string, string>) =>
  app.request(path, { method: 'POST', body: new URLSearchParams(form) });

describe('the notification settings', () => {
  it('lists the devices with a Remove form each, and embeds the hub’s key, the token and where to post', async () => {
    notify.subscribe({ ...subscription(), label: 'Firefox on Linux <b>' });
    const [device] = notify.devices();
    const response = await dashboard({ notify }).request(SETTINGS);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Firefox on Linux &lt;b&gt;');
    expect(html).toContain('added 2027-01-15 08:00 UTC');
    expect(html).toContain(`action="${SETTINGS}/devices/${device?.id}/remove"`);
    expect(html).toContain(`data-key="${await notify.publicKey()}"`);
    expect(await notify.publicKey()).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(html).toContain(`data-csrf="${CSRF}"`);
    expect(html).toContain(`data-action="${SETTINGS}/devices"`);
    expect(html).toContain('Turn on notifications on this device');
    expect(html).toContain('never decides');
    expect(html).toContain(`action="${SETTINGS}/webhook"`);
  });

  it('says why, instead of the button, on a hub that keeps no secrets', async () => {
    const html = await (await dashboard({ notify: notifyDesk(undefined) }).request(SETTINGS)).text();
    expect(html).toContain('This hub cannot send notifications: this hub keeps no secrets');
    expect(html).not.toContain('id="turn-on"');
    expect(html).not.toContain('data-key=');
  });

  it('records the page script’s subscription with the session’s token, and notes the hub’s origin', async () => {
    const sent = subscription();
    const response = await post(dashboard({ notify }), `${SETTINGS}/devices`, { ...sent, csrf: CSRF });
    expect(response.status).toBe(200);
    const { id } = (await response.json()) as { id: string };
    expect(notify.devices()).toEqual([
      {
        id,
        endpoint: sent.endpoint,
        p256dh: sent.p256dh,
        auth: sent.auth,
        label: sent.label,
        createdAt: world.clock.now(),
      },
    ]);
    expect(notify.settings().origin).toBe('http://localhost');
  });

  it('refuses a subscription without the session’s token, or with another, recording nothing', async () => {
    const app = dashboard({ notify });
    for (const csrf of [undefined, 'another-token']) {
      const form = { ...subscription(), ...(csrf ? { csrf } : {}) };
      const response = await post(app, `${SETTINGS}/devices`, form);
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: string }).error).toContain('reload the page and try again');
    }
    expect(notify.devices()).toEqual([]);
    expect(notify.settings()).toEqual({});
  });

  it('answers 400 naming what to do for an endpoint that is not https, recording nothing', async () => {
    const response = await post(dashboard({ notify }), `${SETTINGS}/devices`, {
      ...subscription('http://push.example/send/abc'),
      csrf: CSRF,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain('turn notifications on again');
    expect(notify.devices()).toEqual([]);
  });

  it('removes a device once; a second Remove is a problem page; without the token nothing is removed', async () => {
    const app = dashboard({ notify });
    const { id } = notify.subscribe(subscription());
    const path = `${SETTINGS}/devices/${id}/remove`;
    const refused = await post(app, path, { csrf: 'another-token' });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Device not removed');
    expect(notify.devices()).toHaveLength(1);
    const removed = await post(app, path, { csrf: CSRF });
    expect(removed.status).toBe(303);
    expect(removed.headers.get('location')).toBe(SETTINGS);
    expect(notify.devices()).toEqual([]);
    const again = await post(app, path, { csrf: CSRF });
    expect(again.status).toBe(404);
    const html = await again.text();
    expect(html).toContain('No such device');
    expect(html).toContain(`href="${SETTINGS}"`);
  });

  it('refuses an http webhook, saves an https one, and Clear clears it', async () => {
    const app = dashboard({ notify });
    const path = `${SETTINGS}/webhook`;
    const http = await post(app, path, { webhook: 'http://hooks.example/in', action: 'save', csrf: CSRF });
    expect(http.status).toBe(400);
    expect(await http.text()).toContain('the webhook must be an https:// URL');
    expect(notify.settings()).toEqual({});
    const forged = await post(app, path, { webhook: 'https://hooks.example/in', action: 'save' });
    expect(forged.status).toBe(403);
    expect(notify.settings()).toEqual({});
    const empty = await post(app, path, { webhook: ' ', action: 'save', csrf: CSRF });
    expect(empty.status).toBe(400);
    expect(notify.settings()).toEqual({});

    const saved = await post(app, path, { webhook: 'https://hooks.example/in', action: 'save', csrf: CSRF });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(SETTINGS);
    expect(notify.settings()).toEqual({ webhook: 'https://hooks.example/in', origin: 'http://localhost' });
    expect(await (await app.request(SETTINGS)).text()).toContain('value="https://hooks.example/in"');

    const cleared = await post(app, path, {
      webhook: 'https://hooks.example/in',
      action: 'clear',
      csrf: CSRF,
    });
    expect(cleared.status).toBe(303);
    expect(notify.settings()).toEqual({ origin: 'http://localhost' });
  });

  it('is not open to a session for one run’s approval, and nothing is recorded', async () => {
    const app = dashboard({ notify, scope: { kind: 'run', runId: 'run_a' } });
    expect((await app.request(SETTINGS)).status).toBe(403);
    const response = await post(app, `${SETTINGS}/devices`, { ...subscription(), csrf: CSRF });
    expect(response.status).toBe(403);
    expect(
      (await post(app, `${SETTINGS}/webhook`, { webhook: 'https://h.example', action: 'save', csrf: CSRF }))
        .status,
    ).toBe(403);
    expect(notify.devices()).toEqual([]);
    expect(notify.settings()).toEqual({});
  });
});

describe('the installable dashboard', () => {
  it('with notify: every page links the manifest, loads the hub’s script, and the nav has Notifications', async () => {
    const app = dashboard({ notify });
    for (const path of ['/', '/runs', SETTINGS, '/runs/run_nope']) {
      const response = await app.request(path);
      const html = await response.text();
      expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"/>');
      expect(html).toContain('<meta name="theme-color" content="#0b4f9c"/>');
      expect(html).toContain('<script src="/app.js" defer=""></script>');
      expect(html).toContain(`<a href="${SETTINGS}"`);
      expect(html).toContain('>Notifications</a>');
      expect(response.headers.get('content-security-policy')).toBe(APP_CONTENT_SECURITY_POLICY);
    }
    expect(APP_CONTENT_SECURITY_POLICY).toBe(
      "default-src 'none'; script-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    const settings = await (await app.request(SETTINGS)).text();
    expect(settings).toContain(`<a href="${SETTINGS}" aria-current="page">Notifications</a>`);
  });

  it('without notify (the local hub): no Notifications link, no manifest, no script, the no-script policy', async () => {
    const app = dashboard();
    for (const path of ['/', '/runs']) {
      const response = await app.request(path);
      const html = await response.text();
      expect(html).not.toContain('Notifications');
      expect(html).not.toContain('manifest');
      expect(html).not.toContain('<script');
      expect(html).not.toContain('data-waiting');
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('content-security-policy')).toBe(
        SECURITY_HEADERS['Content-Security-Policy'],
      );
    }
    expect((await app.request(SETTINGS)).status).toBe(404);
  });

  it('tells the page script exactly which calls still wait, on every page', async () => {
    const app = dashboard({ notify });
    const waitingOn = async (path: string) => {
      const html = await (await app.request(path)).text();
      const found = /<body data-waiting="([^"]*)">/.exec(html);
      return found?.[1]?.split(' ').filter(Boolean).sort();
    };
    expect(await waitingOn('/')).toEqual([]);
    const [a0, a1] = world.seedRun('run_a', 2);
    const [b0] = world.seedRun('run_b', 1);
    expect(await waitingOn('/')).toEqual([a0, a1, b0].sort());
    const decided = await post(app, '/runs/run_a/decide', {
      pendingId: a0 ?? '',
      choice: 'once',
      csrf: CSRF,
      back: 'run',
    });
    expect(decided.status).toBe(303);
    for (const path of ['/', '/runs/run_b', SETTINGS]) expect(await waitingOn(path)).toEqual([a1, b0].sort());
  });
});

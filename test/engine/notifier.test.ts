/**
 * The notifier (engine/push/notifier.ts), against a push service stand-in that does what one
 * does: it checks each request's VAPID header (audience, expiry, ES256 signature by the key the
 * settings page publishes) and decrypts the body with the subscription's private key, as the
 * browser would. One notification per waiting call; nothing for a decided call; none of the
 * hub's secrets and no long value whole; a device the service says is gone is removed; the
 * per-minute cap holds; the webhook gets the same notice with a link that only opens the page;
 * a private address is never reached where the host refuses them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PushDevice } from '../../engine/contracts/notify.ts';
import { NotifyDesk } from '../../engine/desk/notify-desk.ts';
import { Notifier, type PushMessage } from '../../engine/push/notifier.ts';
import { StoredVapidKeys } from '../../engine/push/vapid-keys.ts';
import { createScrubber } from '../../engine/secrets/scrub.ts';
import type { SecretStore } from '../../engine/secrets/secret-store.ts';
import {
  checkVapid,
  decryptPushBody,
  type TestSubscription,
  testSubscription,
} from '../fixtures/push-receiver.ts';
import { type PromptWorld, promptWorld } from './prompt-fixture.ts';

const SECRET = 'ghp_notifierSecret0123456789abcdefABCDEF';
const LONG = `start-${'x'.repeat(500)}-end`;

let world: PromptWorld;
let vapid: StoredVapidKeys;
let desk: NotifyDesk;
/** What the stand-in received, decrypted, per endpoint. */
let received: Map<string, PushMessage[]>;
let subscriptions: Map<string, TestSubscription>;
let webhookBodies: Record<string, unknown>[];
/** Endpoints the stand-in answers with this status instead of 201. */
let statusOf: Map<string, number>;
let requested: string[];

class MemorySecrets implements SecretStore {
  readonly where = 'memory';
  readonly values = new Map<string, string>();
  async get(key: string) {
    return this.values.get(key);
  }
  async set(key: string, value: string) {
    this.values.set(key, value);
  }
  async delete(key: string) {
    this.values.delete(key);
  }
}

async function pushService(url: string | URL, init?: RequestInit): Promise<Response> {
  const endpoint = String(url);
  requested.push(endpoint);
  if (endpoint.startsWith('https://hooks.chat.example/')) {
    webhookBodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    return new Response('ok');
  }
  const headers = new Headers(init?.headers);
  await checkVapid(headers.get('authorization'), endpoint, await vapid.publicKey(), world.clock.now());
  expect(headers.get('content-encoding')).toBe('aes128gcm');
  expect(Number(headers.get('ttl'))).toBeGreaterThan(0);
  const status = statusOf.get(endpoint);
  if (status) return new Response('gone', { status });
  const subscription = subscriptions.get(endpoint);
  if (!subscription) throw new Error(`no subscription at ${endpoint}`);
  const text = await decryptPushBody(new Uint8Array(init?.body as Uint8Array), subscription);
  received.set(endpoint, [...(received.get(endpoint) ?? []), JSON.parse(text) as PushMessage]);
  return new Response(null, { status: 201 });
}

async function subscribe(endpoint: string): Promise<PushDevice> {
  const subscription = await testSubscription(endpoint);
  subscriptions.set(endpoint, subscription);
  return desk.subscribe({ endpoint, ...subscription.keys, label: 'Chromium on Linux' });
}

function notifier(options: { perMinute?: number; privateAddresses?: 'refuse' | 'allow' } = {}) {
  return new Notifier({
    store: world.store,
    clock: world.clock,
    vapid,
    scrubber: () => createScrubber([SECRET]),
    subject: () => 'https://hub.example',
    privateAddresses: options.privateAddresses ?? 'refuse',
    fetch: pushService,
    ...(options.perMinute === undefined ? {} : { perMinute: options.perMinute }),
  });
}

/** A run waiting on one call whose arguments carry the hub's secret and a long value. */
function waitOnSecret(runId: string): string {
  const [id] = world.seedRun(runId, 0);
  const pending = {
    id: id ?? `pending_${runId}_secret`,
    runId,
    seq: 0,
    kind: 'approval' as const,
    address: 'github.create_issue',
    connection: 'work',
    summary: 'Create an issue.',
    argsPreview: JSON.stringify({ title: 'Leak', body: `token ${SECRET}`, notes: LONG }),
    argsDigest: 'ab'.repeat(32),
    contract: 'cd'.repeat(32),
    args: { title: 'Leak', body: `token ${SECRET}`, notes: LONG },
    reason: 'github.create_issue is not read-only, so it asks',
    createdAt: world.clock.now(),
    expiresAt: world.clock.now() + 86_400_000,
  };
  world.store.addPendingInput(pending);
  return pending.id;
}

const decide = (pendingId: string, runId: string) =>
  world.store.recordDecision({
    id: `dec_${pendingId}`,
    pendingId,
    runId,
    choice: 'once',
    channel: 'dashboard',
    who: 'github:ana',
    at: world.clock.now(),
  });

beforeEach(() => {
  world = promptWorld();
  vapid = new StoredVapidKeys(new MemorySecrets());
  desk = new NotifyDesk({
    store: world.store,
    clock: world.clock,
    random: world.random,
    vapid,
    privateAddresses: 'refuse',
  });
  received = new Map();
  subscriptions = new Map();
  webhookBodies = [];
  statusOf = new Map();
  requested = [];
});
afterEach(() => world.close());

describe('the notifier', () => {
  it('sends each device one notification per waiting call, and none again or for a decided call', async () => {
    await subscribe('https://push.example/phone');
    await subscribe('https://push.example/laptop');
    const [first, second] = world.seedRun('run_a', 2);
    const report = await notifier().notifyWaiting('run_a');
    expect(report).toMatchObject({ notified: [first, second], pushes: 4, failures: [] });
    const phone = received.get('https://push.example/phone') ?? [];
    expect(phone.map((m) => m.tag)).toEqual([first, second]);
    expect(phone[0]).toEqual({
      title: 'Allow board.post?',
      body: 'board.post is not read-only, so it asks\n{ "text": "hello 0" }',
      tag: first,
      url: '/runs/run_a',
    });
    expect(phone[1]?.title).toBe('Allow board.post as work?');

    expect((await notifier().notifyWaiting('run_a')).pushes).toBe(0);
    const [decided] = world.seedRun('run_b', 1);
    decide(decided ?? '', 'run_b');
    expect(await notifier().notifyWaiting('run_b')).toMatchObject({ notified: [], pushes: 0 });
    world.seedRun('run_c', 1);
    expect((await notifier().notifyWaiting('run_c')).pushes).toBe(2);
  });

  it("shows the address, the connection and why, and none of the hub's secrets or long values whole", async () => {
    await subscribe('https://push.example/phone');
    const id = waitOnSecret('run_s');
    await notifier().notifyWaiting('run_s');
    const [message] = received.get('https://push.example/phone') ?? [];
    expect(message?.tag).toBe(id);
    expect(message?.title).toBe('Allow github.create_issue as work?');
    expect(message?.body).toContain('github.create_issue is not read-only, so it asks');
    expect(message?.body).toContain('"body":"token [secret]"');
    expect(message?.body).toContain('characters not shown');
    expect(JSON.stringify(message)).not.toContain(SECRET);
    expect(JSON.stringify(message)).not.toContain(SECRET.slice(0, 12));
    expect(JSON.stringify(message)).not.toContain('x'.repeat(60));
    expect(message?.body.length).toBeLessThan(400);
  });

  it('removes a device its push service says is gone, and still reaches the others', async () => {
    const gone = await subscribe('https://push.example/gone');
    await subscribe('https://push.example/phone');
    statusOf.set('https://push.example/gone', 410);
    world.seedRun('run_a', 1);
    const report = await notifier().notifyWaiting('run_a');
    expect(report).toMatchObject({ pushes: 1, removedDevices: [gone.id] });
    expect(desk.devices().map((d) => d.endpoint)).toEqual(['https://push.example/phone']);
    statusOf.set('https://push.example/phone', 404);
    world.seedRun('run_b', 1);
    await notifier().notifyWaiting('run_b');
    expect(desk.devices()).toEqual([]);
  });

  it('holds the per-minute cap: a call past it waits in the inbox and is never notified later', async () => {
    await subscribe('https://push.example/phone');
    world.seedRun('run_a', 3);
    const report = await notifier({ perMinute: 2 }).notifyWaiting('run_a');
    expect(report.notified).toHaveLength(2);
    expect(report.capped).toHaveLength(1);
    world.clock.set(world.clock.now() + 120_000);
    expect((await notifier({ perMinute: 2 }).notifyWaiting('run_a')).pushes).toBe(0);
    world.seedRun('run_b', 1);
    expect((await notifier({ perMinute: 2 }).notifyWaiting('run_b')).pushes).toBe(1);
  });

  it('claims nothing while the person has nowhere to be told', async () => {
    world.seedRun('run_a', 1);
    expect((await notifier().notifyWaiting('run_a')).notified).toEqual([]);
    await subscribe('https://push.example/phone');
    expect((await notifier().notifyWaiting('run_a')).pushes).toBe(1);
  });

  it("sends the webhook the same notice with a link to the approval page, the hub's secrets scrubbed", async () => {
    desk.setWebhook('https://hooks.chat.example/T1/B2', 'https://hub.example');
    waitOnSecret('run_s');
    const report = await notifier().notifyWaiting('run_s');
    expect(report.webhooks).toBe(1);
    const [body] = webhookBodies;
    expect(body).toMatchObject({
      title: 'Allow github.create_issue as work?',
      address: 'github.create_issue',
      connection: 'work',
      url: 'https://hub.example/runs/run_s',
    });
    expect(String(body?.text)).toContain('Open the approval: https://hub.example/runs/run_s');
    expect(body?.content).toBe(body?.text);
    expect(JSON.stringify(body)).not.toContain(SECRET);
    expect(JSON.stringify(body)).not.toMatch(/decide|choice=/);
  });

  it('never reaches a private address where the host refuses them, and the settings refuse one too', async () => {
    await expect(subscribe('https://127.0.0.1/push')).rejects.toThrow(/private address/);
    await expect(subscribe('http://push.example/plain')).rejects.toThrow(/https/);
    expect(() => desk.setWebhook('https://10.0.0.8/hook', 'https://hub.example')).toThrow(/private address/);
    expect(desk.settings().webhook).toBeUndefined();
    // One recorded while the hub allowed private addresses (development), then refused at send.
    const allowing = new NotifyDesk({
      store: world.store,
      clock: world.clock,
      random: world.random,
      vapid,
      privateAddresses: 'allow',
    });
    const subscription = await testSubscription('http://127.0.0.1:9/push');
    allowing.subscribe({ endpoint: subscription.endpoint, ...subscription.keys, label: 'dev' });
    world.seedRun('run_a', 1);
    const report = await notifier().notifyWaiting('run_a');
    expect(report.pushes).toBe(0);
    expect(report.failures.join('\n')).toMatch(/private address/);
    expect(requested).toEqual([]);
  });
});

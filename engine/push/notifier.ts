/**
 * The notifier (issue #37): when a run starts waiting for a person, it tells them where they are.
 * For each call the run waits on it claims the call's one notification in the store (at most one
 * per waiting call, at most NOTIFICATIONS_PER_MINUTE a minute for the person; a call past the cap
 * waits in the inbox, never notified later), then sends the notice to each subscribed device as a
 * Web Push message (RFC 8291 encrypted, RFC 8292 signed; web-push.ts) and to the person's webhook.
 * A device the push service says is gone (404, 410) is removed.
 *
 * A notice carries a path to the call's approval page, never a way to decide: the page is behind
 * the person's sign-in and asks as it always does. Sending runs beside the run, never before its
 * pause is answered (the host hands the promise to `waitUntil`), and a failure is logged, never
 * thrown: a notification that did not arrive leaves the call waiting in the inbox, as before.
 * Requests go through guardedFetch, to the endpoint's own host only and, where the host refuses
 * private addresses, never to one.
 */

import { openInputs } from '../approvals/open-inputs.ts';
import { type FetchLike, guardedFetch, type PrivateAddresses } from '../connectors/guarded-fetch.ts';
import { NOTIFICATIONS_PER_MINUTE, type PushDevice } from '../contracts/notify.ts';
import type { Clock, HubStore } from '../ports.ts';
import type { Scrubber } from '../secrets/scrub.ts';
import { type Notice, noticeOf } from './notice.ts';
import type { VapidKeySource } from './vapid-keys.ts';
import { encryptPushBody, fromBase64url, vapidAuthorization } from './web-push.ts';

/** A push service's answer is a status and a short body; anything longer is not read. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** How long a push service keeps an undelivered message: a waiting call expires within a day. */
const MAX_TTL_SECONDS = 24 * 60 * 60;
/** How long one request may take before the notifier gives up on it. */
const REQUEST_TIMEOUT_MS = 10_000;

export interface NotifierDeps {
  store: HubStore;
  clock: Clock;
  vapid: VapidKeySource;
  /** The hub's scrubber as it is now (engine.secrets.scrubber, refreshed by the run). */
  scrubber: () => Scrubber;
  /** The VAPID `sub` as it is now: a contact for the push service, `mailto:` or `https:`. */
  subject: () => string;
  privateAddresses: PrivateAddresses;
  fetch?: FetchLike;
  perMinute?: number;
  /** Where a failure to notify is told (the host's log); never thrown. */
  log?: (message: string) => void;
}

/** What one pass sent, for logs and tests. */
export interface NotifyReport {
  notified: string[];
  capped: string[];
  pushes: number;
  removedDevices: string[];
  webhooks: number;
  failures: string[];
}

/** The plaintext a device's service worker reads (dashboard's /sw.js): a notification and where it opens. */
export interface PushMessage {
  title: string;
  body: string;
  tag: string;
  url: string;
}

export class Notifier {
  readonly #deps: NotifierDeps;

  constructor(deps: NotifierDeps) {
    this.#deps = deps;
  }

  /** Notifies the person of each call `runId` waits on that was not notified yet. */
  async notifyWaiting(runId: string): Promise<NotifyReport> {
    const report: NotifyReport = {
      notified: [],
      capped: [],
      pushes: 0,
      removedDevices: [],
      webhooks: 0,
      failures: [],
    };
    const { store, clock } = this.#deps;
    const perMinute = this.#deps.perMinute ?? NOTIFICATIONS_PER_MINUTE;
    // Nowhere to send: nothing is claimed, so the cap counts only notifications that went out.
    if (store.listPushDevices().length === 0 && !store.getNotifySettings().webhook) return report;
    for (const pending of openInputs(store, runId)) {
      const outcome = store.claimNotification({ pendingId: pending.id, runId, at: clock.now() }, perMinute);
      if (outcome === undefined) continue;
      if (outcome === 'capped') {
        report.capped.push(pending.id);
        continue;
      }
      report.notified.push(pending.id);
      const scrubber = this.#deps.scrubber();
      const notice = noticeOf(pending, (text) => scrubber.text(text));
      const ttl = Math.max(
        60,
        Math.min(MAX_TTL_SECONDS, Math.floor((pending.expiresAt - clock.now()) / 1000)),
      );
      await Promise.all([
        ...store.listPushDevices().map((device) => this.#push(device, notice, ttl, report)),
        this.#webhook(notice, report),
      ]);
    }
    for (const failure of report.failures) this.#deps.log?.(failure);
    return report;
  }

  async #push(device: PushDevice, notice: Notice, ttl: number, report: NotifyReport): Promise<void> {
    try {
      const message: PushMessage = {
        title: notice.title,
        body: notice.body,
        tag: notice.pendingId,
        url: notice.path,
      };
      const keys = await this.#deps.vapid.keys();
      const body = await encryptPushBody({
        receiverPublic: fromBase64url(device.p256dh),
        authSecret: fromBase64url(device.auth),
        plaintext: new TextEncoder().encode(JSON.stringify(message)),
      });
      const response = await this.#fetch(device.endpoint)(device.endpoint, {
        method: 'POST',
        headers: {
          authorization: await vapidAuthorization(
            device.endpoint,
            this.#deps.subject(),
            keys,
            this.#deps.clock.now(),
          ),
          'content-encoding': 'aes128gcm',
          'content-type': 'application/octet-stream',
          ttl: String(ttl),
          urgency: 'high',
        },
        body: new Uint8Array(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      await response.body?.cancel();
      if (response.status === 404 || response.status === 410) {
        this.#deps.store.removePushDevice(device.id);
        report.removedDevices.push(device.id);
      } else if (response.ok) {
        report.pushes++;
      } else {
        report.failures.push(`the push service for device ${device.id} answered ${response.status}`);
      }
    } catch (error) {
      report.failures.push(`could not notify device ${device.id}: ${messageOf(error)}`);
    }
  }

  /** The same notice to the person's webhook, with a link to the approval (never one that decides). */
  async #webhook(notice: Notice, report: NotifyReport): Promise<void> {
    const { webhook, origin } = this.#deps.store.getNotifySettings();
    if (!webhook || !origin) return;
    const link = new URL(notice.path, origin).href;
    const text = `${notice.title}\n${notice.body}\nOpen the approval: ${link}`;
    try {
      const response = await this.#fetch(webhook)(webhook, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          // `text` (Slack, Google Chat, Mattermost) and `content` (Discord) carry the same message.
          text,
          content: text,
          title: notice.title,
          address: notice.address,
          connection: notice.connection,
          reason: notice.reason,
          preview: notice.preview,
          url: link,
        }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      await response.body?.cancel();
      if (response.ok) report.webhooks++;
      else report.failures.push(`the webhook answered ${response.status}`);
    } catch (error) {
      report.failures.push(`could not reach the webhook: ${messageOf(error)}`);
    }
  }

  /** A fetch that reaches only `url`'s host, never a private address where the host refuses them. */
  #fetch(url: string): FetchLike {
    return guardedFetch(
      {
        allowedHosts: [new URL(url).host],
        maxResponseBytes: MAX_ANSWER_BYTES,
        maxRedirects: 0,
        privateAddresses: this.#deps.privateAddresses,
      },
      this.#deps.fetch,
    );
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * How the hosted hub reaches a person when a call waits for them (issue #37): the devices they
 * subscribed to Web Push from the dashboard, an optional webhook, and the record of each
 * notification sent, which makes it at most one per waiting call and bounds them per minute.
 *
 * The hub's records, as zod 4 schemas (see sources.ts).
 */
import { z } from 'zod';
import { Id, Timestamp } from './names.ts';

/** base64url without padding, as a browser's `PushSubscription.toJSON()` spells keys. */
const Base64url = z.string().regex(/^[A-Za-z0-9_-]+$/);

/** An http(s) URL: a push service's endpoint as a browser gave it, or a webhook a person typed. */
export const WebUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const { protocol } = new URL(value);
      return protocol === 'https:' || protocol === 'http:';
    } catch {
      return false;
    }
  }, 'an http(s):// URL');

/** An https URL, as a webhook must be. */
export const HttpsUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      return new URL(value).protocol === 'https:';
    } catch {
      return false;
    }
  }, 'an https:// URL');

/** One device's Web Push subscription (the browser's `PushSubscription`), per person and device. */
export const PushDevice = z.object({
  id: Id,
  /**
   * Where the push service takes messages for the device. Browsers give https; the notify desk
   * refuses anything else, but a hub run for development (private addresses allowed) also takes
   * a loopback http stand-in, so the record itself allows http.
   */
  endpoint: WebUrl,
  /** The user agent's P-256 public key, 65 octets (RFC 8291 §3.2). */
  p256dh: Base64url.min(86).max(88),
  /** The authentication secret, 16 octets (RFC 8291 §3.2). */
  auth: Base64url.min(22).max(24),
  /** What the person calls the device (from its browser), shown on the settings page. */
  label: z.string().min(1).max(120),
  createdAt: Timestamp,
});
export type PushDevice = z.infer<typeof PushDevice>;

/** What became of one waiting call's notification. */
export const NotificationOutcome = z.enum(['sent', 'capped']);
export type NotificationOutcome = z.infer<typeof NotificationOutcome>;

/** Notifications a person gets in one minute at most; a call past the cap waits in the inbox. */
export const NOTIFICATIONS_PER_MINUTE = 6;

/**
 * A person's notification settings: the webhook that gets each waiting call (optional), and the
 * hub's public origin as the dashboard last saw it, which links in a webhook's message start from.
 */
export const NotifySettings = z.object({
  webhook: HttpsUrl.optional(),
  origin: z.string().url().optional(),
});
export type NotifySettings = z.infer<typeof NotifySettings>;

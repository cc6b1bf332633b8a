/**
 * The store's notification records (contracts/notify.ts): a person's push devices, their
 * notification settings (in hub_meta), and the claim of each waiting call's notification, which
 * is what keeps it to one per call and the person's notifications under the per-minute cap.
 */
import { asc, count, eq, gt, lt } from 'drizzle-orm';
import { type NotificationOutcome, NotifySettings, PushDevice } from '../contracts/notify.ts';
import { Records } from './records.ts';
import { checkInput, parseRecord } from './rows.ts';
import * as t from './schema.ts';

const SETTINGS_KEY = 'notify_settings';

export class NotifyRecords extends Records {
  /** Keeps a device's subscription; the same endpoint again (a browser re-subscribing) replaces it. */
  putPushDevice(device: PushDevice): void {
    const checked = checkInput(PushDevice, device, 'push device');
    this.write((db) =>
      db
        .insert(t.hubPushDevices)
        .values(checked)
        .onConflictDoUpdate({
          target: t.hubPushDevices.endpoint,
          set: { p256dh: checked.p256dh, auth: checked.auth, label: checked.label },
        })
        .run(),
    );
  }

  /** Every subscribed device, oldest first. */
  listPushDevices(): PushDevice[] {
    return this.db
      .select()
      .from(t.hubPushDevices)
      .orderBy(asc(t.hubPushDevices.createdAt), asc(t.hubPushDevices.id))
      .all()
      .map((row) => parseRecord(PushDevice, row, 'push device'));
  }

  /** Forgets a device; false when there was none. */
  removePushDevice(id: string): boolean {
    return this.write(
      (db) => db.delete(t.hubPushDevices).where(eq(t.hubPushDevices.id, id)).returning().all().length > 0,
    );
  }

  getNotifySettings(): NotifySettings {
    const row = this.db.select().from(t.hubMeta).where(eq(t.hubMeta.key, SETTINGS_KEY)).get();
    return row ? parseRecord(NotifySettings, JSON.parse(row.value), 'notify settings') : {};
  }

  putNotifySettings(settings: NotifySettings): void {
    const value = JSON.stringify(checkInput(NotifySettings, settings, 'notify settings'));
    this.write((db) =>
      db
        .insert(t.hubMeta)
        .values({ key: SETTINGS_KEY, value })
        .onConflictDoUpdate({ target: t.hubMeta.key, set: { value } })
        .run(),
    );
  }

  /**
   * Claims the one notification of a waiting call, in one transaction: undefined when it was
   * claimed before (nothing to send), `capped` when `perMinute` were claimed in the minute
   * before `at` (recorded, so it is never sent later either), else `sent` (the caller sends).
   */
  claimNotification(
    call: { pendingId: string; runId: string; at: number },
    perMinute: number,
  ): NotificationOutcome | undefined {
    return this.write((db) => {
      const claimed = db
        .select()
        .from(t.hubNotifications)
        .where(eq(t.hubNotifications.pendingId, call.pendingId))
        .get();
      if (claimed) return undefined;
      const recent =
        db
          .select({ n: count() })
          .from(t.hubNotifications)
          .where(gt(t.hubNotifications.at, call.at - 60_000))
          .get()?.n ?? 0;
      const outcome: NotificationOutcome = recent >= perMinute ? 'capped' : 'sent';
      db.insert(t.hubNotifications)
        .values({ ...call, outcome })
        .run();
      return outcome;
    });
  }

  /** Forgets the claims made before `before` (their calls ended long since); how many. */
  pruneNotifications(before: number): number {
    return this.write(
      (db) => db.delete(t.hubNotifications).where(lt(t.hubNotifications.at, before)).returning().all().length,
    );
  }
}

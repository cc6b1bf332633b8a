/**
 * The hosted hub's housekeeping, riding on the Durable Object alarm (HubObject.alarm): after
 * each run that may leave a request open, and once a day, a sweep ends the runs whose requests
 * expired, deletes runs that ended more than 7 days ago, page links and sessions past their time,
 * abandoned source drafts and unfinished sign-ins, forgets week-old notification claims, and sets
 * the next alarm at the earliest open expiry (a day at most). A run that starts waiting for a
 * person also notifies them (hub-notifications.ts), beside the run's answer and never before it.
 * Nothing here can change a run's answer: a model told "failed" would run the code again.
 */
import type { ExecuteEnvelope } from '../engine/contracts/envelope.ts';
import type { Engine } from '../engine/engine.ts';
import type { HubStore } from '../engine/ports.ts';
import type { Notifier } from '../engine/push/notifier.ts';
import type { SourceSignIns } from '../engine/sources/source-sign-in.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface HousekeepingDeps {
  /** The object's storage, for its alarm. */
  storage: Pick<DurableObjectStorage, 'getAlarm' | 'setAlarm'>;
  /** The object's `waitUntil`: work that outlives the request without delaying its answer. */
  waitUntil(promise: Promise<unknown>): void;
  engine: Engine;
  store: HubStore;
  signIns(): SourceSignIns;
  notifier(): Notifier;
}

export class HubHousekeeping {
  readonly #deps: HousekeepingDeps;

  constructor(deps: HousekeepingDeps) {
    this.#deps = deps;
  }

  /** After a run: its person told of what it waits on, and an alarm kept set. Answers `envelope` as it is. */
  async afterRun(envelope: ExecuteEnvelope): Promise<ExecuteEnvelope> {
    if (envelope.status === 'awaiting_approval') this.#deps.waitUntil(this.#notify(envelope.runId));
    try {
      if (envelope.status === 'awaiting_approval' || (await this.#deps.storage.getAlarm()) === null) {
        await this.sweep();
      }
    } catch (error) {
      // The run's answer stands whatever happens here. The alarm, or the next run, sweeps.
      console.error(
        'the hub could not sweep runs after a run',
        error instanceof Error ? error.message : error,
      );
    }
    return envelope;
  }

  /** Sweeps (see the file's docblock) and sets the next alarm. */
  async sweep(): Promise<void> {
    const { engine, store, storage } = this.#deps;
    const { nextExpiry } = (await engine.runs()).sweep();
    // A waiting call lasts a day at most: its notification's claim is kept a week, then forgotten.
    store.pruneNotifications(Date.now() - 7 * DAY_MS);
    engine.pages.sweep();
    // An abandoned source draft's credential goes with it, and so does a sign-in never finished.
    await engine.drafts.sweep();
    await this.#deps.signIns().sweep();
    const now = Date.now();
    const next = Math.min(nextExpiry ?? now + DAY_MS, now + DAY_MS);
    const current = await storage.getAlarm();
    if (current === null || current > next || current <= now) await storage.setAlarm(next);
  }

  /** Notifies the person of what `runId` waits on; a failure is logged, the call waits in the inbox. */
  async #notify(runId: string): Promise<void> {
    try {
      await this.#deps.notifier().notifyWaiting(runId);
    } catch (error) {
      console.error('the hub could not notify', error instanceof Error ? error.message : error);
    }
  }
}

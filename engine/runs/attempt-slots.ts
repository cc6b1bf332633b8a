/**
 * The hub's attempt slots (spec: Security, I7 "every channel has a budget"): at most
 * `concurrentAttempts` attempts run at once across the whole hub, since each holds a guest heap
 * and a sandbox. Twenty `execute`s at once once took 1.4 GB, sixty 3.8 GB.
 *
 * A local hub is several processes over one store (each `serve --stdio`, the HTTP server, the
 * CLI), so slots are counted in the store, not in memory: the live attempts are the running runs
 * marked within their lease (runs.ts), and they are counted in the same transaction that claims
 * the next attempt, so two processes can never both take the last slot. The same code runs in the
 * HubObject, where the store is the object's own.
 *
 * An attempt that finds every slot taken waits, polling with a backoff from 25 ms to 250 ms, for
 * at most `attemptQueueMs` (time read from the Clock; the pauses summed bound it too, should the
 * clock stand still), then gives up with a HubError('unavailable') that says to retry. An attempt
 * that ends in this process wakes the ones waiting here on the same store at once; those of other
 * processes see the slot at their next poll. Nothing is written for a claim that never ran: a new
 * execute's run is created by its claim.
 *
 * One slot is kept for resumes (when the cap allows more than one): new code may take all but
 * one, so a session that keeps every slot busy with new runs cannot stop a person's decision
 * from being carried out (`hub approve` resumes the run it decided).
 */
import { HubError } from '../errors.ts';
import type { RunLimits } from '../limits.ts';
import type { Clock, HubStore } from '../ports.ts';

/** A running run not marked for this long has lost its attempt (its process died). */
export const ATTEMPT_LEASE_MS = 5_000;

const FIRST_PAUSE_MS = 25;
const LONGEST_PAUSE_MS = 250;

/** Wakes for the attempts waiting in this process, by store. */
const waiting = new WeakMap<HubStore, Set<() => void>>();

function waitersOf(store: HubStore): Set<() => void> {
  let set = waiting.get(store);
  if (set === undefined) {
    set = new Set();
    waiting.set(store, set);
  }
  return set;
}

/** Says an attempt on `store` ended: the attempts waiting for a slot in this process look again now. */
export function slotFreed(store: HubStore): void {
  const set = waitersOf(store);
  for (const wake of [...set]) wake();
}

/** `ms` milliseconds, or less if a slot frees meanwhile: true when the whole pause passed. */
function pause(store: HubStore, ms: number): Promise<boolean> {
  const set = waitersOf(store);
  return new Promise((resolve) => {
    const end = (whole: boolean) => {
      clearTimeout(timer);
      set.delete(wake);
      resolve(whole);
    };
    const wake = () => end(false);
    const timer = setTimeout(() => end(true), ms);
    set.add(wake);
  });
}

export interface SlotDeps {
  store: HubStore;
  clock: Clock;
  limits: Pick<RunLimits, 'concurrentAttempts' | 'attemptQueueMs'>;
}

/** What the busy error says was left as it was, and what to call again. */
export interface Refusal {
  unchanged: string;
  retry: string;
}

/** What the attempt is for: new code leaves one slot to resumes. */
export type SlotUse = 'new' | 'resume';

/**
 * Runs `claim` (synchronous: it writes the run that holds the slot) inside one transaction with
 * the count of live attempts, once a slot is free; waits for one for at most `attemptQueueMs`.
 */
export async function claimSlot<T>(
  deps: SlotDeps,
  claim: (now: number) => T,
  refusal: Refusal,
  use: SlotUse,
): Promise<T> {
  const { store, clock, limits } = deps;
  const slots =
    use === 'new' && limits.concurrentAttempts > 1
      ? limits.concurrentAttempts - 1
      : limits.concurrentAttempts;
  const started = clock.now();
  let paused = 0;
  for (let next = FIRST_PAUSE_MS; ; next = Math.min(next * 2, LONGEST_PAUSE_MS)) {
    const claimed = store.atomically(() => {
      const now = clock.now();
      const live = store.countLiveAttempts(now - ATTEMPT_LEASE_MS);
      return live < slots ? { value: claim(now) } : undefined;
    });
    if (claimed) return claimed.value;
    const waited = Math.max(clock.now() - started, paused);
    if (waited >= limits.attemptQueueMs) {
      throw new HubError(
        'unavailable',
        `the hub is busy: it runs at most ${plural(limits.concurrentAttempts, 'attempt')} at once and none ended ` +
          `within ${seconds(limits.attemptQueueMs)}, so ${refusal.unchanged}. ` +
          `Call ${refusal.retry} again in a few seconds.`,
      );
    }
    const wait = Math.min(next, limits.attemptQueueMs - waited);
    // Only whole pauses count: one cut short by a freed slot took less than asked.
    if (await pause(store, wait)) paused += wait;
  }
}

function seconds(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function plural(n: number, word: string): string {
  return `${n} ${n === 1 ? word : `${word}s`}`;
}

/**
 * A QuickJS attempt's timers, host side: the guest's `setTimeout`s (each capped at 30 s) as
 * real timers that fire a turn, and the prelude's idle check (timer id 0, "after every pending
 * job"), which needs no real timer: it is only remembered as asked for, and the attempt runs it
 * at the end of a turn once nothing is in flight and no timer waits.
 */

/** The prelude's idle check (engine/prelude/source/run.ts). */
export const IDLE_CHECK = 0;
const TIMER_MAX_MS = 30_000;

export class GuestTimers {
  readonly #timers = new Map<number, NodeJS.Timeout>();
  readonly #onFire: (id: number) => void;
  #idleCheck = false;

  /** `onFire(id)` runs when a guest timer is due. */
  constructor(onFire: (id: number) => void) {
    this.#onFire = onFire;
  }

  /** Whether the guest asked for the idle check since it last ran. */
  get idleCheckAsked(): boolean {
    return this.#idleCheck;
  }

  /** Whether any guest timer is still waiting. */
  get waiting(): boolean {
    return this.#timers.size > 0;
  }

  set(id: number, ms: number): void {
    if (id === IDLE_CHECK) {
      this.#idleCheck = true;
      return;
    }
    if (id < 0 || this.#timers.has(id)) return;
    const timeout = setTimeout(
      () => {
        this.#timers.delete(id);
        this.#onFire(id);
      },
      Math.min(Math.max(ms, 0), TIMER_MAX_MS),
    );
    this.#timers.set(id, timeout);
  }

  clear(id: number): void {
    if (id === IDLE_CHECK) this.#idleCheck = false;
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
  }

  /** The idle check is about to run: it is no longer asked for. */
  takeIdleCheck(): void {
    this.#idleCheck = false;
  }

  clearAll(): void {
    for (const timeout of this.#timers.values()) clearTimeout(timeout);
    this.#timers.clear();
    this.#idleCheck = false;
  }
}

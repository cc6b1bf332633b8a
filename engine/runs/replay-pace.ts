/**
 * Replay at the first attempt's pace (issue: a decision covers only the call the person saw).
 * Journaled calls replay from the store at once, while the guest's timers run in real time, so
 * code that races a timer against a call could tell a resumed attempt from the first one and
 * change what it asks for after a person decided. The guarantee against that is elsewhere (a
 * decision covers only the exact call shown, decision-cover.ts); this only makes the difference
 * hard to see, where it is cheap: a replayed answer is handed back no sooner than the call took
 * when it ran (its recorded `ms`), so a race resolves the same way on every attempt.
 *
 * Bounded per attempt, so a long first attempt cannot make its resume run out of wall time: past
 * the budget, replayed answers come back at once.
 */

/** How much replay may wait in one attempt, all replayed calls together. */
export const REPLAY_PACE_BUDGET_MS = 10_000;

export class ReplayPace {
  #left: number;

  constructor(budgetMs = REPLAY_PACE_BUDGET_MS) {
    this.#left = budgetMs;
  }

  /** Resolves once a replayed call that took `ms` when it ran would have answered. */
  async wait(ms: number): Promise<void> {
    const delay = Math.min(Math.max(0, Math.round(ms)), this.#left);
    if (delay <= 0) return;
    this.#left -= delay;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

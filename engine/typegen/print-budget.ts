/**
 * How much one printing may produce (spec: Security, I7 "every channel has a budget"). A schema
 * is a graph: `$ref`s to one location print it once per reference, so a 2 KB schema whose
 * definitions each refer twice to the next prints 2^n copies, and a few levels of that took
 * seconds before any token was counted. A printer given a budget charges it, as it goes, for the
 * characters it writes that the output keeps (names, keywords, literals, property keys, docs) and
 * for every step it takes; past either limit it stops with OverBudget, which never leaves typegen.
 *
 * Charges never exceed what the finished output holds, so "over budget" means the output would
 * have been longer than the budget: a caller that has no use for a longer text loses nothing by
 * stopping. Steps (type nodes visited) are bounded at STEPS_PER_CHAR per character, far above
 * what any real schema takes, so that chains of nodes that print nothing of their own are bounded
 * too.
 */

/** Type nodes a printing may visit per character of its budget. */
const STEPS_PER_CHAR = 8;

/** Thrown by a printer whose budget ran out; caught by typegen's own callers, never beyond. */
export class OverBudget extends Error {
  override readonly name = 'OverBudget';

  constructor() {
    super('the printed text would be longer than its budget');
  }
}

export class PrintBudget {
  #chars: number;
  #steps: number;

  /** A budget of `chars` characters of output. */
  constructor(chars: number) {
    this.#chars = chars;
    this.#steps = chars * STEPS_PER_CHAR;
  }

  /** Charges `n` characters the output will hold. */
  spend(n: number): void {
    this.#chars -= n;
    if (this.#chars < 0) throw new OverBudget();
  }

  /** Charges one step of printing (a type node visited). */
  step(): void {
    this.#steps -= 1;
    if (this.#steps < 0) throw new OverBudget();
  }
}

/** `print()`, or `fallback` when its budget ran out. */
export function within<T, F>(print: () => T, fallback: F): T | F {
  try {
    return print();
  } catch (error) {
    if (error instanceof OverBudget) return fallback;
    throw error;
  }
}

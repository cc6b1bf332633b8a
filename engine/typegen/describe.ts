/**
 * `describe`: TypeScript declarations for up to ten targets within a token budget (spec: The MCP
 * surface, describe). The answer is never over budget. Richest first, it tries:
 *
 * 1. every requested tool and type, with deeper levels inlined less and less (all of them, then 3,
 *    2 and 1 levels; deeper types are printed by name and declared `unknown` for a later describe);
 * 2. the same with descriptions cut to their first sentence, then without property docs;
 * 3. the longest prefix of the requested tools and types that fits without property docs, at
 *    whichever depth shows the most (a method's input printed by name as the last resort), with a
 *    note naming the rest;
 * 4. the note alone, shortened until it fits.
 */
import type { Manifest } from '../contracts/sources.ts';
import { HubError } from '../errors.ts';
import { type Item, omissionNote, type Plan, renderAnswer } from './answer.ts';
import { resolveTargets } from './targets.ts';
import { countTokens } from './tokens.ts';

/** The default budget of one answer, in o200k_base tokens. */
export const DEFAULT_BUDGET_TOKENS = 2500;

export interface DescribeOptions {
  /** The most tokens the answer may take; 2,500 unless given. */
  budgetTokens?: number | undefined;
}

export interface DescribeAnswer {
  /** The declarations, ready to show the model. */
  text: string;
  /** `countTokens(text)`, never more than the budget. */
  tokens: number;
  /** Requested tools (addresses) and types (`namespace.Type`) the budget left out, in request order. */
  omitted: string[];
}

/**
 * Richest first: for each way of writing descriptions, every depth. (Depth alone does not order
 * sizes: a small type costs less in place than as a name and its declaration.)
 */
const PLANS: readonly Plan[] = (['full', 'brief', 'terse'] as const).flatMap((docs) =>
  [Infinity, 3, 2, 1].map((depth) => ({ depth, docs })),
);
/** Plans for showing part of the request: the one showing the most wins, the richest of those. */
const FALLBACKS: readonly Plan[] = [Infinity, 3, 2, 1].map((depth) => ({ depth, docs: 'terse' }));
/** When not even one tool fits those: its input printed by name (then those of as many more as fit). */
const LAST_RESORT: Plan = { depth: 0, docs: 'terse' };

/**
 * TypeScript declarations for `targets` (1 to 10 namespaces, tool addresses or type names) from
 * the namespaces' manifests. Throws `invalid_input` for a bad target list or budget and
 * `not_found` (naming the closest matches) for unknown targets.
 */
export function describeTargets(
  manifests: readonly Manifest[],
  targets: readonly string[],
  options: DescribeOptions = {},
): DescribeAnswer {
  const budget = options.budgetTokens ?? DEFAULT_BUDGET_TOKENS;
  if (!Number.isSafeInteger(budget) || budget < 1) {
    throw new HubError('invalid_input', `budgetTokens must be a positive integer; got ${budget}.`);
  }
  const { items, empty } = resolveTargets(manifests, targets);
  if (items.length === 0) {
    const text = `// ${empty.join(', ')}: no tools.\n`;
    const tokens = countTokens(text);
    return tokens <= budget ? { text, tokens, omitted: [] } : { text: '', tokens: 0, omitted: [] };
  }
  // Declarations run about 4 characters a token (5.6 at most on the corpus): past 8, text cannot
  // fit, so rendering stops there (answer.ts) and counting stops past the budget (tokens.ts).
  const maxChars = budget * 8;
  const measure = (text: string | undefined) => {
    const tokens = text === undefined || text.length > maxChars ? Infinity : countTokens(text, budget);
    return { text: text ?? '', tokens };
  };
  const answer = (text: string, tokens: number, omitted: readonly Item[]): DescribeAnswer => ({
    text,
    tokens,
    omitted: omitted.map((item) =>
      item.kind === 'tool' ? item.tool.tool.address : `${item.model.namespace}.${item.type.name}`,
    ),
  });

  for (const plan of PLANS) {
    const { text, tokens } = measure(renderAnswer(items, [], plan, maxChars));
    if (tokens <= budget) return answer(text, tokens, []);
  }
  const fits = (plan: Plan, k: number) =>
    measure(renderAnswer(items.slice(0, k), items.slice(k), plan, maxChars)).tokens <= budget;
  let best = { shown: 0, plan: LAST_RESORT };
  for (const plan of FALLBACKS) {
    // A plan is worth searching only if it shows more than the best so far; all of them was tried above.
    if (best.shown + 1 >= items.length || !fits(plan, best.shown + 1)) continue;
    best = { shown: longestFit(best.shown + 1, items.length - 1, (k) => fits(plan, k)), plan };
  }
  if (best.shown === 0) best.shown = longestFit(0, items.length, (k) => fits(LAST_RESORT, k));
  if (best.shown > 0) {
    const shown = items.slice(0, best.shown);
    const { text, tokens } = measure(renderAnswer(shown, items.slice(best.shown), best.plan, maxChars));
    return answer(text, tokens, items.slice(best.shown));
  }
  const note = longestFit(0, items.length, (n) => measure(omissionNote(items, n)).tokens <= budget);
  const text = note > 0 ? omissionNote(items, note) : '';
  return answer(text, countTokens(text), items);
}

/**
 * The largest n in [from, max] for which `fits(n)` holds, by bisection; `from` when none does
 * (`fits(from)` is known to hold, or `from` is 0). Bisection assumes that showing less never takes
 * more tokens, which holds up to a token or two; the n returned always fits, whatever happens.
 */
function longestFit(from: number, max: number, fits: (n: number) => boolean): number {
  let low = from;
  let high = max;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

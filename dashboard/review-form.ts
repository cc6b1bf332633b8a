/**
 * What a review form asks for, checked against what waits for review now, before anything is
 * recorded. Pure: the form's fields and the source's pending review items in, the effects to
 * record with the contract each tool was shown with out, or why not. The rules:
 * - every row names a tool of this source that waits for review now (else `invalid`: 400);
 * - "Accept all proposals" takes each row's proposed effect, as `hub review --yes` does; per tool,
 *   each row's effect must be one of the three the CLI offers (else `invalid`);
 * - each row's contract must be the tool's current one (else `stale`: 409), since a decision
 *   covers exactly what the person was shown.
 */
import { type PolicyEffect, PolicyEffect as PolicyEffectSchema } from '../engine/contracts/policy.ts';
import type { ReviewItem } from '../engine/sources/review.ts';

/** A form's fields as `parseBody` hands them over (files are never a review's). */
export type FormFields = Record<string, unknown>;

export type ReviewForm =
  | { kind: 'ok'; effects: Map<string, PolicyEffect>; shown: Map<string, string> }
  | { kind: 'invalid'; what: string }
  | { kind: 'stale'; addresses: string[] };

const CONTRACT = 'contract:';
const EFFECT = 'effect:';

export function readReviewForm(form: FormFields, pending: readonly ReviewItem[]): ReviewForm {
  const choice = form.choice;
  if (choice !== 'accept' && choice !== 'adjust')
    return {
      kind: 'invalid',
      what: 'The form pressed neither Accept all proposals nor Record these choices.',
    };
  const rows = Object.keys(form).filter((key) => key.startsWith(CONTRACT));
  if (rows.length === 0) return { kind: 'invalid', what: 'The form named no tool to review.' };
  const waiting = new Map(pending.map((item) => [item.address, item]));
  const effects = new Map<string, PolicyEffect>();
  const shown = new Map<string, string>();
  const stale: string[] = [];
  for (const key of rows) {
    const address = key.slice(CONTRACT.length);
    const item = waiting.get(address);
    if (!item)
      return {
        kind: 'invalid',
        what: `${address} does not wait for review in this source (reviewed meanwhile, or never one of its tools).`,
      };
    const effect =
      choice === 'accept' ? item.proposed : PolicyEffectSchema.safeParse(form[`${EFFECT}${address}`]);
    if (typeof effect !== 'string' && !effect.success)
      return { kind: 'invalid', what: `The choice for ${address} is not one of Allow, Ask or Deny.` };
    const contract = form[key];
    if (typeof contract !== 'string')
      return { kind: 'invalid', what: `The row of ${address} carried no contract.` };
    if (contract !== item.tool.contract) stale.push(address);
    effects.set(address, typeof effect === 'string' ? effect : effect.data);
    shown.set(address, contract);
  }
  if (stale.length > 0) return { kind: 'stale', addresses: stale };
  // In the order the review lists them, as the CLI records them, whatever order the form had.
  const listed = pending.map((item) => item.address).filter((address) => effects.has(address));
  return {
    kind: 'ok',
    effects: new Map(listed.map((address) => [address, effects.get(address) as PolicyEffect])),
    shown: new Map(listed.map((address) => [address, shown.get(address) as string])),
  };
}

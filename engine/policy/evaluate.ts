/**
 * Policy: the rule that settles one tool call (spec: Security, "Policy decides every call"). Its
 * evaluation is a verdict (`evaluatePolicy`, `PolicyVerdict`); a decision is only ever a person's
 * (CONTEXT.md), recorded elsewhere (engine/approvals/person-input.ts).
 *
 * 1. Any matching `deny` wins; a narrower rule never loosens it. A deny ignores contract pins:
 *    a tool changing upstream never lifts a deny.
 * 2. A tool that is new, or changed since a person reviewed it, asks, and says what changed.
 * 3. Otherwise the most specific rule decides: tool + connection, tool, source + connection,
 *    source. A rule pinned to a contract applies only while the tool's contract is that one.
 *    Between rules equally specific, the stricter wins.
 * 4. With no rule, a tool annotated `readOnlyHint: true` runs and anything else asks (an
 *    unannotated tool counts as possibly destructive, as the MCP specification advises).
 *
 * Pure: no I/O, no clock. Every verdict carries its reason in words a person understands.
 */
import { parseToolAddress } from '../address.ts';
import type { PolicyEffect, PolicyRule } from '../contracts/policy.ts';
import type { ManifestTool, ToolReview } from '../contracts/sources.ts';
import { unreachable } from '../errors.ts';
import { changedParts, describeChange } from '../sources/manifest-diff.ts';

export interface PolicyCall {
  address: string;
  /** The connection the call uses; null when the source has none. */
  connection: string | null;
}

export interface PolicyVerdict {
  effect: PolicyEffect;
  reason: string;
  /** The rule that decided, when one did. */
  ruleId?: string;
}

const STRICTNESS: Record<PolicyEffect, number> = { allow: 0, ask: 1, deny: 2 };

/** How specific a rule is for this call (higher wins), or -1 when it does not match. */
function specificity(rule: PolicyRule, call: PolicyCall, namespace: string): number {
  if (rule.connection !== undefined && rule.connection !== call.connection) return -1;
  const narrowed = rule.connection !== undefined ? 1 : 0;
  if (rule.target.kind === 'tool') return rule.target.address === call.address ? 2 + narrowed : -1;
  return rule.target.namespace === namespace ? narrowed : -1;
}

function describeRule(rule: PolicyRule): string {
  const target = rule.target.kind === 'tool' ? rule.target.address : `source ${rule.target.namespace}`;
  if (rule.connection === undefined) return target;
  return rule.connection === null
    ? `${target} with no connection`
    : `${target} on connection ${rule.connection}`;
}

/** What the policy reads of a tool: its contract and what it declares of itself. */
export type PolicyTool = Pick<ManifestTool, 'contract' | 'annotations'>;

/** How the policy ruled, before it is put in words. */
type Ruling =
  | { effect: PolicyEffect; by: 'rule'; rule: PolicyRule }
  | { effect: 'ask'; by: 'unreviewed' | 'changed' }
  | { effect: 'allow'; by: 'read-only' }
  | { effect: 'ask'; by: 'write' };

function rule(
  call: PolicyCall,
  tool: PolicyTool,
  rules: readonly PolicyRule[],
  reviewedContract: string | undefined,
): Ruling {
  const namespace = parseToolAddress(call.address)?.namespace ?? '';
  const matching = rules
    .map((rule) => ({ rule, level: specificity(rule, call, namespace) }))
    .filter((m) => m.level >= 0);

  const deny = matching.find((m) => m.rule.effect === 'deny');
  if (deny) return { effect: 'deny', by: 'rule', rule: deny.rule };
  if (reviewedContract === undefined) return { effect: 'ask', by: 'unreviewed' };
  if (reviewedContract !== tool.contract) return { effect: 'ask', by: 'changed' };

  const live = matching.filter((m) => m.rule.contract === undefined || m.rule.contract === tool.contract);
  const best = live.reduce<(typeof live)[number] | undefined>((winner, m) => {
    if (!winner || m.level > winner.level) return m;
    if (m.level === winner.level && STRICTNESS[m.rule.effect] > STRICTNESS[winner.rule.effect]) return m;
    return winner;
  }, undefined);
  if (best) return { effect: best.rule.effect, by: 'rule', rule: best.rule };
  return tool.annotations?.readOnlyHint === true
    ? { effect: 'allow', by: 'read-only' }
    : { effect: 'ask', by: 'write' };
}

/** The verdict on one call to `tool` as it is listed now, against the person's review of it, with the reason. */
export function evaluatePolicy(
  call: PolicyCall,
  tool: ManifestTool,
  rules: readonly PolicyRule[],
  review: ToolReview | undefined,
): PolicyVerdict {
  const ruling = rule(call, tool, rules, review?.contract);
  switch (ruling.by) {
    case 'rule': {
      const { effect, rule: decided } = ruling;
      const words = effect === 'deny' ? 'denied' : effect === 'allow' ? 'allowed' : 'asks';
      return { effect, reason: `${words} by your policy on ${describeRule(decided)}`, ruleId: decided.id };
    }
    case 'unreviewed':
      return { effect: 'ask', reason: 'new since your last review: a person has not approved this tool yet' };
    case 'changed': {
      const parts = review ? changedParts(review.tool, tool) : [];
      return {
        effect: 'ask',
        reason: parts.length > 0 ? describeChange(parts) : 'changed upstream since you approved it',
      };
    }
    case 'read-only':
      return { effect: 'allow', reason: 'reads: declared read-only' };
    case 'write':
      return { effect: 'ask', reason: 'writes: not declared read-only' };
    default:
      return unreachable(ruling);
  }
}

/**
 * The effect alone, as `evaluatePolicy` would rule it, from the tool's contract and annotations and the
 * contract a person reviewed (search shows `[asks]` and hides denied tools without reading whole
 * tools and reviews).
 */
export function policyEffect(
  call: PolicyCall,
  tool: PolicyTool,
  rules: readonly PolicyRule[],
  reviewedContract: string | undefined,
): PolicyEffect {
  return rule(call, tool, rules, reviewedContract).effect;
}

/**
 * What a person changes on a source from a page, beside what `Sources` does for a review: what
 * removing a source would take with it (shown before the person confirms), a tool's own rule as
 * it stands, the other rules that can decide its calls, a rule set back to the default, and the
 * check that a review or a rule covers the contracts the person was shown.
 *
 * Invariants: a rule changes only for the contract the person was shown (else `conflict`, nothing
 * changed), and a removal only while it takes what the page showed (`removalStamp`); a deny pinned to no contract, or on the tool's source, still wins over a rule set on
 * a page (policy/evaluate.ts), so the page shows such rules.
 */
import { canonicalJson } from '../canonical-json.ts';
import type { PolicyEffect, PolicyRule } from '../contracts/policy.ts';
import type { SourceChange } from '../contracts/source-history.ts';
import type { Manifest, ManifestTool } from '../contracts/sources.ts';
import { sha256Hex } from '../digest.ts';
import { HubError } from '../errors.ts';
import type { HubStore } from '../ports.ts';

/** What removing a source takes with it, as the removal page shows it before the person confirms. */
export interface Removal {
  namespace: string;
  /** Its tools' addresses (none before its first tool list). */
  tools: string[];
  /** Its connections, each with how many stored secrets go with it and whether it is a sign-in. */
  connections: { name: string; secrets: number; signsIn: boolean }[];
  /** The policy rules on the source or its tools. */
  rules: number;
  /** Its tools a person reviewed (the approvals that go). */
  reviews: number;
  /** Runs waiting for a person on one of its tools: they stay, and their call finds no tool. */
  waiting: { runId: string; addresses: string[] }[];
}

/**
 * What the removal page showed, as a stamp its form carries back: a removal is confirmed only
 * while the source would take exactly that with it (a connection, rule or waiting run added since
 * refuses the confirm, and the person looks again).
 */
export function removalStamp(removal: Removal): Promise<string> {
  return sha256Hex(canonicalJson(removal));
}

/** A tool's rule as the person set it: an effect pinned to its contract, or none of theirs. */
export type ToolRuleChoice = PolicyEffect | 'default';

/** True for the rule a review or this page sets: on the tool, every connection, pinned to `contract`. */
function isOwnRule(rule: PolicyRule, address: string, contract: string): boolean {
  return (
    rule.target.kind === 'tool' &&
    rule.target.address === address &&
    rule.connection === undefined &&
    rule.contract === contract
  );
}

/** The person's own rule on `tool` as it is now (its effect), or `default` when there is none. */
export function ruleOf(rules: readonly PolicyRule[], tool: ManifestTool): ToolRuleChoice {
  return rules.find((rule) => isOwnRule(rule, tool.address, tool.contract))?.effect ?? 'default';
}

/**
 * The rules besides the person's own on `tool` that can decide its calls: on its source, on one
 * connection, or pinned to no contract. A deny among them wins over any rule set here.
 */
export function otherRulesOf(rules: readonly PolicyRule[], tool: ManifestTool): PolicyRule[] {
  return rules.filter(
    (rule) =>
      !isOwnRule(rule, tool.address, tool.contract) &&
      (rule.contract === undefined || rule.contract === tool.contract),
  );
}

/** What removing `namespace` would take with it (the source must exist). */
export function removalOf(store: HubStore, namespace: string): Removal {
  const manifest = store.getManifest(namespace);
  const tools = manifest?.tools.map((tool) => tool.address) ?? [];
  const mine = (address: string) => address.startsWith(`${namespace}.`);
  const rules = store
    .listPolicyRules()
    .filter((rule) =>
      rule.target.kind === 'source' ? rule.target.namespace === namespace : mine(rule.target.address),
    );
  const waiting = store
    .listRuns({ status: 'awaiting_input' })
    .map((run) => ({
      runId: run.id,
      addresses: store
        .listPendingInputs(run.id)
        .filter((pending) => mine(pending.address) && store.getDecision(pending.id) === undefined)
        .map((pending) => pending.address),
    }))
    .filter((run) => run.addresses.length > 0);
  return {
    namespace,
    tools,
    connections: store.listConnections(namespace).map((connection) => ({
      name: connection.name,
      secrets: connection.secrets.length,
      signsIn: connection.secrets.some((ref) => ref.delivery.kind === 'oauth'),
    })),
    rules: rules.length,
    reviews: store.listReviews(namespace).length,
    waiting,
  };
}

/**
 * Throws conflict unless every tool in `effects` still has the contract it was shown with (a
 * review's or a rule's: a decision covers exactly what the person was shown).
 */
export function sameAsShown(
  manifest: Manifest,
  effects: ReadonlyMap<string, PolicyEffect>,
  shown: ReadonlyMap<string, string>,
): void {
  const current = new Map(manifest.tools.map((tool) => [tool.address, tool.contract]));
  for (const address of effects.keys()) {
    if (shown.get(address) !== current.get(address)) {
      throw new HubError(
        'conflict',
        `${address} changed since it was shown for review; nothing was recorded. Review it again as it is now.`,
      );
    }
  }
}

/** The removal as the source's history keeps it: how many of each thing went. */
export function removedChange(removal: Removal): SourceChange {
  const { tools, connections, rules } = removal;
  return { kind: 'removed', tools: tools.length, connections: connections.length, rules };
}

/**
 * Sets `address`'s rule back to the default, when its contract is still `shown`: the person's
 * rules pinned to a contract go (as a review replaces them, sources.ts), and the tool stays
 * reviewed at its contract, so its annotations decide (a read-only tool runs, anything else
 * asks). Call inside the store's transaction.
 */
export function resetToolRule(
  store: HubStore,
  manifest: Manifest,
  address: string,
  shown: string,
  now: number,
): void {
  const tool = manifest.tools.find((t) => t.address === address);
  if (!tool || tool.contract !== shown) {
    throw new HubError(
      'conflict',
      `${address} changed since it was shown; nothing was changed. Set its rule again as it is now.`,
    );
  }
  for (const old of store.listPolicyRules(address)) {
    if (old.target.kind === 'tool' && old.contract) store.removePolicyRule(old.id);
  }
  store.putReview({ address, namespace: manifest.namespace, contract: tool.contract, tool, reviewedAt: now });
}

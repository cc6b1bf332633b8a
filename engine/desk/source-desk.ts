/**
 * What a person-facing host (the CLI, the dashboard, the approval page) asks the engine about
 * sources: every source with its counts, one source, its tools' rules, what removing it takes, its
 * history, a source's connections. Reads only; adding,
 * refreshing and reviewing sources stay with `Sources`. An unknown namespace is the one `noSource`.
 */
import type { Connection } from '../contracts/connections.ts';
import type { PolicyRule } from '../contracts/policy.ts';
import type { SourceEvent } from '../contracts/source-history.ts';
import type { ManifestTool, Source } from '../contracts/sources.ts';
import { evaluatePolicy, type PolicyVerdict } from '../policy/evaluate.ts';
import type { HubStore } from '../ports.ts';
import {
  otherRulesOf,
  type Removal,
  removalOf,
  removalStamp,
  ruleOf,
  type ToolRuleChoice,
} from '../sources/source-changes.ts';
import { storedSource } from '../sources/stored.ts';
import type { HostWording } from '../wording.ts';

/** One source as a person sees it listed. */
export interface SourceSummary {
  source: Source;
  /** How many tools its manifest holds (0 before its first tool list). */
  tools: number;
  connections: Connection[];
  /** How many of its tools are new or changed and wait for review (they ask until then). */
  toReview: number;
  /** When its tool list was last read (null before the first): the health the store knows. */
  listedAt: number | null;
}

/** One tool's rule as a source's page shows it, beside the form that changes it. */
export interface ToolRuleRow {
  tool: ManifestTool;
  /** The person's own rule on the tool, pinned to its contract now, or `default` (none). */
  rule: ToolRuleChoice;
  /** Other rules that can decide its calls (on its source, on one connection, unpinned). */
  others: PolicyRule[];
  /** How the policy decides its next call on the default connection, with the reason. */
  now: PolicyVerdict;
}

export interface SourceDeskDeps {
  store: HubStore;
  /** How a person finds what exists, in the host's words (for the not-found errors). */
  wording: HostWording;
  /** How many of a source's tools wait for review (`Sources.pendingReview`). */
  toReview(namespace: string): number;
}

export class SourceDesk {
  readonly #deps: SourceDeskDeps;

  constructor(deps: SourceDeskDeps) {
    this.#deps = deps;
  }

  /** Every source, in the store's order, with its counts. */
  list(): SourceSummary[] {
    const { store, toReview } = this.#deps;
    return store.listSources().map((source) => {
      const manifest = store.getManifest(source.namespace);
      return {
        source,
        tools: manifest?.tools.length ?? 0,
        connections: store.listConnections(source.namespace),
        // Nothing waits for review before the first tool list (and `toReview` would say none is read).
        toReview: manifest ? toReview(source.namespace) : 0,
        listedAt: manifest?.fetchedAt ?? null,
      };
    });
  }

  /** Every source's namespace. */
  namespaces(): string[] {
    return this.#deps.store.listSources().map((source) => source.namespace);
  }

  /** The source under `namespace`; throws `noSource` when there is none. */
  get(namespace: string): Source {
    return storedSource(this.#deps.store, namespace, this.#deps.wording);
  }

  /** Each tool of the source with its rule and how its next call is decided; none before its tool list. */
  rules(namespace: string): ToolRuleRow[] {
    const { store } = this.#deps;
    this.get(namespace);
    const connection = store.listConnections(namespace).find((c) => c.isDefault)?.name ?? null;
    return (store.getManifest(namespace)?.tools ?? []).map((tool) => {
      const rules = store.listPolicyRules(tool.address);
      return {
        tool,
        rule: ruleOf(rules, tool),
        others: otherRulesOf(rules, tool),
        now: evaluatePolicy(
          { address: tool.address, connection },
          tool,
          rules,
          store.getReview(tool.address),
        ),
      };
    });
  }

  /** What removing the source would take with it (source-changes.ts); throws `noSource` if none. */
  removal(namespace: string): Removal {
    this.get(namespace);
    return removalOf(this.#deps.store, namespace);
  }

  /** What removing the source would take with it now, and the stamp its confirm must carry back. */
  async shownRemoval(namespace: string): Promise<{ removal: Removal; stamp: string }> {
    const removal = this.removal(namespace);
    return { removal, stamp: await removalStamp(removal) };
  }

  /** A source's history (every source's without a namespace), newest first: removals outlive their source. */
  history(filter?: { namespace?: string; limit?: number }): SourceEvent[] {
    return this.#deps.store.listSourceEvents(filter);
  }

  /** The connections of the source under `namespace`; throws `noSource` when there is none. */
  connections(namespace: string): Connection[] {
    this.get(namespace);
    return this.#deps.store.listConnections(namespace);
  }
}

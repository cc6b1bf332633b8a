/**
 * The two read-only answers of the hub, `search` and `describe`, over what the store holds now.
 * The search index is built from the stored manifests on first use and kept current by
 * comparing each source's manifest time with what it indexed, so a source added, refreshed or
 * removed by another process (a CLI command beside a running `serve`) is picked up on the next
 * query with one namespace re-indexed, never a full rebuild.
 *
 * `[asks]` and hidden tools come from the same policy decision a call would get, on the
 * source's default connection.
 */

import type { PolicyEffect } from './contracts/policy.ts';
import type { Manifest, ManifestTool } from './contracts/sources.ts';
import { decide } from './policy/decide.ts';
import type { HubStore } from './ports.ts';
import { SearchIndex, search } from './search/index.ts';
import { HUB_DECLARATIONS, isHubTarget } from './typegen/hub-declarations.ts';
import { describeTargets, signatureLine } from './typegen/index.ts';
import type { HostWording } from './wording.ts';

export class Lookup {
  readonly #store: HubStore;
  readonly #wording: HostWording;
  #index: SearchIndex | undefined;
  readonly #indexed = new Map<string, number>();

  constructor(store: HubStore, wording: HostWording) {
    this.#store = store;
    this.#wording = wording;
  }

  /** The plain-text answer of `search` (spec: The MCP surface, search). */
  search(input: unknown): string {
    const index = this.#current();
    const manifests = new Map<string, Manifest>();
    const manifestOf = (namespace: string) => {
      let manifest = manifests.get(namespace);
      if (!manifest) {
        manifest = this.#store.getManifest(namespace);
        if (manifest) manifests.set(namespace, manifest);
      }
      return manifest;
    };
    const rules = this.#store.listPolicyRules();
    return search(index, input, {
      sources: () => this.#store.listSources().map((source) => source.namespace),
      signatureOf: (tool: ManifestTool) => signatureLine(tool, manifestOf(namespaceOf(tool.address))),
      effectOf: (tool: ManifestTool): PolicyEffect => {
        const connection =
          this.#store.listConnections(namespaceOf(tool.address)).find((c) => c.isDefault)?.name ?? null;
        return decide({ address: tool.address, connection }, tool, rules, this.#store.getReview(tool.address))
          .effect;
      },
      connectionsOf: (namespace: string) => this.#store.listConnections(namespace),
      wording: this.#wording,
    });
  }

  /**
   * The declarations `describe` answers, within the token budget; `hub` (or `hub.read`) adds the
   * guest's own helpers (hub-declarations.ts).
   */
  describe(targets: readonly string[], budgetTokens?: number): string {
    const sources = targets.filter((target) => !isHubTarget(target));
    const hub = sources.length < targets.length ? HUB_DECLARATIONS : '';
    if (sources.length === 0 && targets.length > 0) return hub;
    const answer = describeTargets(
      this.#store.listManifests(),
      sources,
      budgetTokens ? { budgetTokens } : {},
    );
    return hub + answer.text;
  }

  /** The index, brought up to date with the store's manifests. */
  #current(): SearchIndex {
    const versions = this.#store.listManifestVersions();
    if (!this.#index) {
      this.#index = SearchIndex.build(this.#store.listManifests());
      for (const { namespace, fetchedAt } of versions) this.#indexed.set(namespace, fetchedAt);
      return this.#index;
    }
    const live = new Set<string>();
    for (const { namespace, fetchedAt } of versions) {
      live.add(namespace);
      if (this.#indexed.get(namespace) !== fetchedAt) {
        const manifest = this.#store.getManifest(namespace);
        if (manifest) this.#index.upsert(manifest);
        this.#indexed.set(namespace, fetchedAt);
      }
    }
    for (const namespace of [...this.#indexed.keys()]) {
      if (!live.has(namespace)) {
        this.#index.remove(namespace);
        this.#indexed.delete(namespace);
      }
    }
    return this.#index;
  }
}

function namespaceOf(address: string): string {
  return address.slice(0, address.indexOf('.'));
}

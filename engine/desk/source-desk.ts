/**
 * What a person-facing host (the CLI, the dashboard, the approval page) asks the engine about
 * sources: every source with its counts, one source, a source's connections. Reads only; adding,
 * refreshing and reviewing sources stay with `Sources`. An unknown namespace is the one `noSource`.
 */
import type { Connection } from '../contracts/connections.ts';
import type { Source } from '../contracts/sources.ts';
import type { HubStore } from '../ports.ts';
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

  /** The connections of the source under `namespace`; throws `noSource` when there is none. */
  connections(namespace: string): Connection[] {
    this.get(namespace);
    return this.#deps.store.listConnections(namespace);
  }
}

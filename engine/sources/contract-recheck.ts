/**
 * class ContractRecheck: before a run attempt's first call to an MCP source is decided, the
 * source's tools are listed again (once per attempt and source, however many calls wait at
 * once), so a contract that changed upstream is in the store, and the call asks, before an older
 * `always` or review could let it through (I3: authority never widens). A stdio server started
 * afresh and a server redeployed behind the same URL both say nothing when their tools change;
 * only listing finds out. The listing is `Sources.refresh`, so the store records the diff as a
 * person's `hub refresh` would. An OpenAPI source's operations are pinned when reviewed and never
 * re-read for a call: nothing is listed for one.
 *
 * A listing never undoes a newer one. Each process serving a hub talks to its own server (a stdio
 * server it started, a session it opened): when what this process's server lists is what it
 * listed last time, but the store holds something else, another process saw the server change
 * since (a person's `hub refresh` of a server started later), and the store is kept, so the call
 * asks. A listing that differs from this process's last one, or its first, is stored.
 */
import type { Manifest } from '../contracts/sources.ts';
import type { HubStore } from '../ports.ts';
import type { HostWording } from '../wording.ts';
import { storedSource } from './stored.ts';

export interface ContractRecheckDeps {
  store: HubStore;
  wording: HostWording;
  /** Lists the source's tools and stores them when `keep` says so (Sources.refresh). */
  refresh: (
    namespace: string,
    keep: (stored: Manifest | undefined, read: Manifest) => boolean,
  ) => Promise<unknown>;
}

/** How many (attempt, source) listings are remembered: far more than run at once on any host. */
const REMEMBERED = 512;

/** A manifest's tools and their contracts, as one comparable text. */
const contractsOf = (manifest: Manifest): string =>
  manifest.tools
    .map((tool) => `${tool.address} ${tool.contract}`)
    .sort()
    .join('\n');

export class ContractRecheck {
  readonly #deps: ContractRecheckDeps;
  /** Listings by attempt and source, oldest first; each settles once and is shared. */
  readonly #listed = new Map<string, Promise<void>>();
  /** What this process's server of each source listed last. */
  readonly #lastRead = new Map<string, string>();

  constructor(deps: ContractRecheckDeps) {
    this.#deps = deps;
  }

  /**
   * Lists `namespace`'s tools again unless `attempt` (a run's id and attempt number) already has;
   * concurrent callers share one listing. Rejects when the source is unknown or the listing fails.
   */
  recheck(namespace: string, attempt: string): Promise<void> {
    const key = `${attempt}\n${namespace}`;
    let listing = this.#listed.get(key);
    if (!listing) {
      listing = this.#list(namespace);
      this.#listed.set(key, listing);
      for (const old of this.#listed.keys()) {
        if (this.#listed.size <= REMEMBERED) break;
        this.#listed.delete(old);
      }
    }
    return listing;
  }

  async #list(namespace: string): Promise<void> {
    const { store, wording, refresh } = this.#deps;
    if (storedSource(store, namespace, wording).kind === 'openapi') return;
    await refresh(namespace, (stored, read) => {
      const now = contractsOf(read);
      const before = this.#lastRead.get(namespace);
      this.#lastRead.set(namespace, now);
      if (stored && contractsOf(stored) === now) return false;
      return stored === undefined || before !== now;
    });
  }
}

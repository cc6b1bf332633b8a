/**
 * class ContractRecheck: before a call is decided, a source's stored tools are brought up to what
 * its server lists now whenever the session the call would use has not listed them since it
 * opened (a stdio server this process started, an HTTP session opened again, a server that said
 * its list changed). A contract that changed upstream is then in the store, and the call asks,
 * before an older `always` or review could let it through (I3: authority never widens). One
 * listing at a time per source; the listing is `Sources.refresh`, so the store records the diff
 * as a person's `hub refresh` would.
 */
import type { HubStore } from '../ports.ts';
import type { HostWording } from '../wording.ts';
import type { SourceConnector } from './connector.ts';
import { storedSource } from './stored.ts';
import type { Upstream } from './upstream.ts';

export interface ContractRecheckDeps {
  store: HubStore;
  connector: SourceConnector;
  /** The default connection's credentials: the session a listing opens is the one calls reuse. */
  upstream: Pick<Upstream, 'credentials'>;
  wording: HostWording;
  /** Lists the source's tools and stores them (Sources.refresh). */
  refresh: (namespace: string) => Promise<unknown>;
}

export class ContractRecheck {
  readonly #deps: ContractRecheckDeps;
  readonly #inFlight = new Map<string, Promise<void>>();

  constructor(deps: ContractRecheckDeps) {
    this.#deps = deps;
  }

  /** Lists `namespace`'s tools again if its session has not; concurrent callers share one listing. */
  recheck(namespace: string): Promise<void> {
    let pending = this.#inFlight.get(namespace);
    if (!pending) {
      pending = this.#recheck(namespace).finally(() => this.#inFlight.delete(namespace));
      this.#inFlight.set(namespace, pending);
    }
    return pending;
  }

  async #recheck(namespace: string): Promise<void> {
    const { store, connector, upstream, wording, refresh } = this.#deps;
    const source = storedSource(store, namespace, wording);
    if (!connector.needsListing) return;
    const credentials = await upstream.credentials(namespace);
    if (await connector.needsListing(source, credentials)) await refresh(namespace);
  }
}

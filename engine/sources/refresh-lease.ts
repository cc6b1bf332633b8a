/**
 * One refresh of an OAuth token across the processes serving one hub (the `hub serve` process,
 * each agent's `capabilities mcp`, CLI commands, all on one store and one secret store; the
 * hosted hub's Durable Object runs the same code): the refresh lease in the store
 * (HubStore.takeRefreshLease), keyed by the grant's secret key. The process that takes it
 * refreshes, then releases it; another one waits, polling the secret store, for the grant the
 * holder writes, and takes the lease itself once it is free again or expired (its holder died or
 * wrote no usable grant). A rotating refresh token is thus sent once, not once per process, where
 * the second would be refused and the call would wait for a person for no reason.
 *
 * Expiry is the Clock's time; only the wait between two looks at the secret store is a real timer.
 */
import { randomId } from '../hex.ts';
import type { Clock, HubStore, Random } from '../ports.ts';

/** How long a refresh lease lasts: longer than a token request may take (oauth-refresh.ts). */
export const REFRESH_LEASE_MS = 30_000;
/** How often a waiting process looks for the holder's grant and tries the lease again. */
const POLL_MS = 100;
/**
 * Past this many looks (twice a lease, however the clock moves), a waiting process refreshes
 * without the lease, as if there were none: a wait never lasts for ever.
 */
const MAX_POLLS = (2 * REFRESH_LEASE_MS) / POLL_MS;

export interface RefreshLeaseDeps {
  store: HubStore;
  clock: Clock;
  random: Random;
}

export class RefreshLeases {
  readonly #store: HubStore;
  readonly #clock: Clock;
  /** This refresher's id as a lease holder: one per process (per refresher in it). */
  readonly #holder: string;

  constructor(deps: RefreshLeaseDeps) {
    this.#store = deps.store;
    this.#clock = deps.clock;
    this.#holder = randomId(deps.random, 'refresher', 12);
  }

  /**
   * `refresh()` under the lease on `key`; while another process holds it, what `theirs()` finds
   * (the grant that process wrote, once usable) instead. `theirs()` is asked again right after the
   * lease is taken (its holder may have written just before letting go), and may throw to end the
   * wait (the connection was removed meanwhile).
   */
  async hold<T>(key: string, theirs: () => Promise<T | undefined>, refresh: () => Promise<T>): Promise<T> {
    for (let poll = 0; ; poll++) {
      const now = this.#clock.now();
      const leased = this.#store.takeRefreshLease(
        { key, holder: this.#holder, expiresAt: now + REFRESH_LEASE_MS },
        now,
      );
      if (leased || poll >= MAX_POLLS) {
        try {
          return (await theirs()) ?? (await refresh());
        } finally {
          if (leased) this.#release(key);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const written = await theirs();
      if (written !== undefined) return written;
    }
  }

  /** Lets the lease go; if the store cannot, the lease simply expires. */
  #release(key: string): void {
    try {
      this.#store.releaseRefreshLease(key, this.#holder);
    } catch {
      // Nothing to do: a lease nobody releases is taken over at its expiry.
    }
  }
}

/**
 * The store's refresh leases (hub_refresh_leases): which process is refreshing an OAuth
 * connection's token, so the processes serving one hub send one refresh between them
 * (engine/sources/oauth-refresh.ts). Taking a lease is one statement, an insert that takes over
 * only an expired lease or the holder's own, so of two processes taking it at once one gets it.
 */
import { and, eq, lte, or } from 'drizzle-orm';
import { HubError } from '../errors.ts';
import type { RefreshLease } from '../ports.ts';
import { Records } from './records.ts';
import * as t from './schema.ts';

export class LeaseRecords extends Records {
  takeRefreshLease(lease: RefreshLease, now: number): boolean {
    const { key, holder, expiresAt } = lease;
    if (key === '' || holder === '' || !Number.isSafeInteger(expiresAt) || !Number.isSafeInteger(now)) {
      throw new HubError(
        'invalid_input',
        'a refresh lease needs a key, a holder, and whole epoch milliseconds for its expiry and for now',
      );
    }
    const taken = this.db
      .insert(t.hubRefreshLeases)
      .values({ key, holder, expiresAt })
      .onConflictDoUpdate({
        target: t.hubRefreshLeases.key,
        set: { holder, expiresAt },
        setWhere: or(lte(t.hubRefreshLeases.expiresAt, now), eq(t.hubRefreshLeases.holder, holder)),
      })
      .returning({ key: t.hubRefreshLeases.key })
      .all();
    return taken.length === 1;
  }

  releaseRefreshLease(key: string, holder: string): void {
    this.db
      .delete(t.hubRefreshLeases)
      .where(and(eq(t.hubRefreshLeases.key, key), eq(t.hubRefreshLeases.holder, holder)))
      .run();
  }
}

/**
 * What a hub's `/healthz` reports, whichever host serves it (worker/app.ts answers it; the
 * HubObject and the local hub fill it in): the hub's id and its store's schema version.
 */
export interface HubHealth {
  hubId: string;
  schemaVersion: number;
}

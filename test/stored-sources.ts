/**
 * Sources straight into a store, for tests and benchmarks that need a hub of real tool lists
 * without starting their servers: each manifest as an added Streamable HTTP source at
 * `https://<namespace>.example/mcp`, its tools reviewed when asked (reads then run, writes ask), each record dated `at` (default 0).
 */
import type { Manifest } from '../engine/contracts/sources.ts';
import type { HubStore } from '../engine/ports.ts';

export function storeSources(
  store: HubStore,
  manifests: readonly Manifest[],
  options: { reviewed?: boolean; at?: number } = {},
): void {
  const at = options.at ?? 0;
  for (const manifest of manifests) {
    const { namespace } = manifest;
    store.atomically(() => {
      store.addSource({
        kind: 'mcp-http',
        namespace,
        url: `https://${namespace}.example/mcp`,
        allowedHosts: [`${namespace}.example`],
        addedAt: at,
        updatedAt: at,
      });
      store.putManifest(manifest);
      if (!options.reviewed) return;
      for (const tool of manifest.tools) {
        store.putReview({ address: tool.address, namespace, contract: tool.contract, tool, reviewedAt: at });
      }
    });
  }
}

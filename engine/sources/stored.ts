/**
 * A source, its tool list and its connections as the store holds them, or the one error that
 * says each is missing: the not-found messages for these three things are written here alone.
 */
import type { Connection } from '../contracts/connections.ts';
import type { Manifest, Source } from '../contracts/sources.ts';
import { HubError } from '../errors.ts';
import { noSource } from '../not-found.ts';
import type { HubStore } from '../ports.ts';
import type { HostWording } from '../wording.ts';

/** The source under `namespace`; not_found, saying how to list them, when there is none. */
export function storedSource(store: HubStore, namespace: string, wording: HostWording): Source {
  const source = store.getSource(namespace);
  if (!source) throw noSource(namespace, wording);
  return source;
}

/** The source's tool list as last read; not_found, saying how to read it, when there is none yet. */
export function storedManifest(store: HubStore, namespace: string, wording: HostWording): Manifest {
  storedSource(store, namespace, wording);
  const manifest = store.getManifest(namespace);
  if (!manifest)
    throw new HubError(
      'not_found',
      `"${namespace}" has no tool list yet; ${wording.refreshSource(namespace)}`,
    );
  return manifest;
}

/**
 * The connection named `name` of a source, or its default when no name is given (undefined when
 * it has none); not_found, naming the ones it has, for a name it does not have.
 */
export function storedConnection(store: HubStore, namespace: string, name?: string): Connection | undefined {
  const connections = store.listConnections(namespace);
  if (name === undefined) return connections.find((c) => c.isDefault);
  const found = connections.find((c) => c.name === name);
  if (!found) {
    const known = connections.map((c) => c.name).join(', ') || 'none';
    throw new HubError('not_found', `"${namespace}" has no connection "${name}" (it has: ${known})`);
  }
  return found;
}

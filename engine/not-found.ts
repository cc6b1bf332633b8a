/**
 * The one not-found error per thing a person names: a source, a run. Every place that looks one
 * up (the store, the runs, the sources, the desk a person-facing host asks) throws these, so the
 * message is written once. Where the engine knows the host's wording it adds how a person finds
 * what exists; the store, below the engine, says only what is missing. And the one line for a hub
 * with nothing in it at all, which `search` answers and `execute` adds to its notices, so the
 * model learns the hub is empty (not that its words matched nothing) and what the person does.
 */
import { HubError } from './errors.ts';
import type { HostWording } from './wording.ts';

/** No source under `namespace`. */
export function noSource(namespace: string, wording?: HostWording): HubError {
  return new HubError('not_found', `no source "${namespace}"${wording ? `; ${wording.listSources}` : ''}`);
}

/** No run with id `runId`. */
export function noRun(runId: string, wording?: HostWording): HubError {
  return new HubError('not_found', `no run ${runId}${wording ? `; ${wording.listRuns}` : ''}`);
}

/**
 * A hub whose sources all wait for a tool list (servers that failed to start when they were
 * added): what `search` answers, naming each with how a person reads its tools again.
 */
export function noToolLists(namespaces: readonly string[], wording: HostWording): string {
  const each = namespaces.slice(0, 5).map((namespace) => wording.refreshSource(namespace));
  return `No tools yet: this hub's sources (${namespaces.join(', ')}) have no tool list yet. Ask the user to fix what stops each and ${each.join(', then ')}.`;
}

/** A hub with no sources yet: what `search` answers and `execute` notices, in the host's words. */
export function emptyHub(wording: HostWording): string {
  return `No tools yet: this hub has no sources. Ask the user to ${wording.addSource}.`;
}

/**
 * The one not-found error per thing a person names: a source, a run. Every place that looks one
 * up (the store, the runs, the sources, the desk a person-facing host asks) throws these, so the
 * message is written once. Where the engine knows the host's wording it adds how a person finds
 * what exists; the store, below the engine, says only what is missing.
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

/**
 * The one not-found error per thing a person names: a source, a run. Every place that looks one
 * up (the store, the runs, the desk a person-facing host asks) throws these, so the message and
 * what it says to do next are written once.
 */
import { HubError } from './errors.ts';

/** No source under `namespace`. */
export function noSource(namespace: string): HubError {
  return new HubError('not_found', `no source "${namespace}"; list sources with \`capabilities hub list\``);
}

/** No run with id `runId`. */
export function noRun(runId: string): HubError {
  return new HubError('not_found', `no run ${runId}; list runs with \`capabilities hub runs\``);
}

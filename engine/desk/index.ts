/**
 * The desk: the queries and commands a person-facing host needs from the engine (the CLI now;
 * the approval page, the dashboard inbox and the hosted hub next), so none of them reads the
 * store itself. `sources` reads sources with their counts and connections; `runs` lists and
 * shows runs, gives a waiting run's open inputs and records a person's decision.
 */
import type { Clock, HubStore, Random } from '../ports.ts';
import type { HostWording } from '../wording.ts';
import { RunDesk } from './run-desk.ts';
import { SourceDesk, type SourceDeskDeps } from './source-desk.ts';

export type { SourceSummary, ToolRuleRow } from './source-desk.ts';
export { RunDesk, SourceDesk };

export interface Desk {
  sources: SourceDesk;
  runs: RunDesk;
}

export function createDesk(deps: {
  store: HubStore;
  clock: Clock;
  random: Random;
  wording: HostWording;
  toReview: SourceDeskDeps['toReview'];
}): Desk {
  const { store, clock, random, wording, toReview } = deps;
  return {
    sources: new SourceDesk({ store, wording, toReview }),
    runs: new RunDesk({ store, clock, random, wording }),
  };
}

/**
 * THROWAWAY (branch hosted-api only): the interface of the lead's ConfigurationPush, so the hosted
 * side compiles before the engine module is merged. The lead's engine/configuration/push.ts
 * replaces this file whole on merge.
 */
import type { HostedStatus, PlanAnswer } from '../contracts/configuration.ts';
import type { Source } from '../contracts/sources.ts';
import { HubError } from '../errors.ts';
import type { Clock, HubStore, Random } from '../ports.ts';
import type { HubSecrets } from '../secrets/hub-secrets.ts';
import type { TransactionalSecretStore } from '../secrets/secret-store.ts';

export interface PushDeps {
  store: HubStore;
  secrets?: TransactionalSecretStore | undefined;
  hubSecrets: HubSecrets;
  clock: Clock;
  random: Random;
  cannotRun: (source: Source) => string | undefined;
}

export class ConfigurationPush {
  readonly #deps: PushDeps;

  constructor(deps: PushDeps) {
    this.#deps = deps;
  }

  async plan(_request: unknown): Promise<PlanAnswer> {
    throw new HubError('unavailable', 'this hosted hub cannot take a push yet');
  }

  async apply(_request: unknown): Promise<PlanAnswer> {
    throw new HubError('unavailable', 'this hosted hub cannot take a push yet');
  }

  async status(): Promise<Pick<HostedStatus, 'sources' | 'lastPlan'>> {
    return { sources: this.#deps.store.listSources().length === 0 ? [] : [] };
  }
}

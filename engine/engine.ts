/**
 * The engine, assembled: a Hub (sources, connections, scrubbed upstream calls), a Lookup
 * (search and describe) and Runs (execute and resume in the sandbox), wired to each other the
 * same way on every host. The local hub (local/cli/with-hub.ts) and the HubObject build theirs
 * with `createEngine`, handing in only their adapters: the store, the connector, the secret
 * store, the sandbox, the clock and the random source.
 *
 * The sandbox is asked for on the first run, so a process that only searches never starts one.
 * One `HubSecrets` knows every secret the hub holds (every connection's, and the host's own
 * tokens and keys) and scrubs what the Hub, the runs and the lookups hand out.
 */
import { createDesk, type Desk } from './desk/index.ts';
import { Hub } from './hub.ts';
import { Lookup } from './lookup.ts';
import type { Clock, HubStore, Random, Sandbox, SandboxHost } from './ports.ts';
import type { RunLimits } from './runs/limits.ts';
import { Runs } from './runs/runs.ts';
import { HubSecrets } from './secrets/hub-secrets.ts';
import type { SecretStore } from './secrets/secret-store.ts';
import type { SourceConnector } from './sources/connector.ts';

export interface EngineDeps {
  store: HubStore;
  connector: SourceConnector;
  /** Absent where the host keeps no secrets yet (then connections cannot be used). */
  secrets?: SecretStore | undefined;
  /** The sandbox, made on the first run. */
  sandbox: () => Sandbox | Promise<Sandbox>;
  clock: Clock;
  random: Random;
  limits?: Partial<RunLimits>;
  /**
   * The host's own secrets, scrubbed like every connection's: its HTTP token, the client-prompt
   * key. Asked for on every refresh of the scrubber, so a key made meanwhile is included.
   */
  ownSecrets?: () => readonly string[];
  /**
   * Where the scrubber reads connection secrets, when it must not be `secrets` itself (the local
   * CLI reads them for scrubbing without the fallback notice a credential's use prints).
   */
  scrubSecrets?: SecretStore | undefined;
}

export interface Engine {
  hub: Hub;
  lookup: Lookup;
  /** What a person-facing host asks and decides (engine/desk/): it never reads the store itself. */
  desk: Desk;
  /** Every secret the hub holds, as one scrubber for whatever leaves the hub. */
  secrets: HubSecrets;
  /** The runs, with the sandbox started on first use. */
  runs(): Promise<Runs>;
}

export function createEngine(deps: EngineDeps): Engine {
  const { store, connector, secrets, clock, random } = deps;
  const hubSecrets = new HubSecrets({
    store,
    secrets: deps.scrubSecrets ?? secrets,
    own: deps.ownSecrets,
    clock,
  });
  const hub = new Hub({ store, connector, secrets, clock, random, hubSecrets });
  const lookup = new Lookup(store);
  const answerLookup: SandboxHost['lookup'] = async (request) => {
    try {
      const { kind, ...input } = request;
      const text = kind === 'search' ? lookup.search(input) : lookup.describe(request.targets);
      // The run refreshed the scrubber when it started; manifests are stored scrubbed.
      return { kind: 'value', value: hubSecrets.scrubber.text(text) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { kind: 'error', error: { code: 'invalid_input', message, retryable: false } };
    }
  };
  let runs: Promise<Runs> | undefined;
  const start = async (): Promise<Runs> =>
    new Runs({
      store,
      sandbox: await deps.sandbox(),
      clock,
      random,
      upstream: (address, args, options) => hub.callTool(address, args, options),
      lookup: answerLookup,
      scrubbing: hubSecrets,
      ...(deps.limits ? { limits: deps.limits } : {}),
    });
  return {
    hub,
    lookup,
    desk: createDesk({ store, clock, random, toReview: (namespace) => hub.pendingReview(namespace).length }),
    secrets: hubSecrets,
    runs: () => {
      // A failed start (no sandbox yet) is not kept: the next call tries again.
      runs ??= start().catch((error: unknown) => {
        runs = undefined;
        throw error;
      });
      return runs;
    },
  };
}

/**
 * The engine, assembled: the facade every host calls. Sources (what a person administers:
 * sources, reviews, connections), Skills (folders with a SKILL.md, served as text, never run),
 * Upstream (the hub's scrubbed calls to its sources), a Lookup (search and describe, over tools
 * and skills) and Runs (execute and resume in the sandbox), wired to each other the
 * same way on every host. The local hub (local/open-hub.ts) and the HubObject build theirs
 * with `createEngine`, handing in only their adapters: the store, the connector, the secret
 * store, the sandbox, the clock and the random source.
 *
 * The sandbox is asked for on the first run, so a process that only searches never starts one.
 * One `HubSecrets` knows every secret the hub holds (every connection's, and the host's own
 * tokens and keys) and scrubs what the sources, the upstream calls, the runs and the lookups hand out.
 */

import type { SourceConnector } from './connectors/connector.ts';
import { createDesk, type Desk } from './desk/index.ts';
import type { RunLimits } from './limits.ts';
import { Lookup } from './lookup.ts';
import { PageAccess } from './pages/page-access.ts';
import type { Clock, HubStore, Random } from './ports.ts';
import { Profiles } from './profiles/profiles.ts';
import { Runs, type RunsDeps } from './runs/runs.ts';
import type { Sandbox } from './sandbox/sandbox.ts';
import { HubSecrets } from './secrets/hub-secrets.ts';
import type { SecretStore } from './secrets/secret-store.ts';
import { Skills } from './skills/skills.ts';
import { ContractRecheck } from './sources/contract-recheck.ts';
import { SourceDrafts } from './sources/source-drafts.ts';
import { Sources } from './sources/sources.ts';
import { Upstream } from './sources/upstream.ts';
import type { HostWording } from './wording.ts';

export interface EngineDeps {
  store: HubStore;
  connector: SourceConnector;
  /** Absent where the host keeps no secrets yet (then connections cannot be used). */
  secrets?: SecretStore | undefined;
  /** The sandbox, made on the first run. */
  sandbox: () => Sandbox | Promise<Sandbox>;
  clock: Clock;
  random: Random;
  /** How a person acts on this host, for the engine's messages: CLI commands, or the dashboard. */
  wording: HostWording;
  limits?: Partial<RunLimits>;
  /**
   * The host's own secrets, scrubbed like every connection's: its HTTP token, the client-prompt
   * key. Asked for on every refresh of the scrubber, so a key made meanwhile is included.
   */
  ownSecrets?: () => readonly string[];
  /** Brings the host's own secrets up to date before each refresh of the scrubber (values another process may replace). */
  ownSecretsRefresh?: () => Promise<void>;
  /**
   * Where the scrubber reads connection secrets, when it must not be `secrets` itself (the local
   * CLI reads them for scrubbing without the fallback notice a credential's use prints).
   */
  scrubSecrets?: SecretStore | undefined;
}

export interface Engine {
  /** What a person administers: sources, their reviews and connections. */
  sources: Sources;
  /** Remote servers a person is adding from the dashboard, inspected and waiting for Confirm. */
  drafts: SourceDrafts;
  /** The skills the hub holds: folders with a SKILL.md, served as text, never run. */
  skills: Skills;
  /** The hub's calls to its sources, scrubbed. */
  upstream: Upstream;
  /** Search and describe for the `default` profile. */
  lookup: Lookup;
  /** Search and describe for one profile (made once per name, reading the profile on every answer). */
  lookupFor(profile: string): Lookup;
  /** The hub's profiles: curated views, each served at its own endpoint. */
  profiles: Profiles;
  /** What a person-facing host asks and decides (engine/desk/): it never reads the store itself. */
  desk: Desk;
  /** Every secret the hub holds, as one scrubber for whatever leaves the hub. */
  secrets: HubSecrets;
  /** The one-time links and sessions that open the approval page and the dashboard. */
  pages: PageAccess;
  /** The runs, with the sandbox started on first use. */
  runs(): Promise<Runs>;
  /** How a person acts on this host, for whatever else the host builds over the engine. */
  wording: HostWording;
}

export function createEngine(deps: EngineDeps): Engine {
  const { store, connector, secrets, clock, random, wording } = deps;
  const hubSecrets = new HubSecrets({
    store,
    secrets: deps.scrubSecrets ?? secrets,
    own: deps.ownSecrets,
    ownRefresh: deps.ownSecretsRefresh,
    clock,
  });
  const upstream = new Upstream({ store, connector, secrets, clock, random, hubSecrets, wording });
  const sources = new Sources({ store, connector, secrets, clock, random, hubSecrets, upstream, wording });
  const recheck = new ContractRecheck({
    store,
    wording,
    refresh: (namespace, keep) => sources.refresh(namespace, keep),
  });
  const profiles = new Profiles(store, clock, wording);
  const lookups = new Map<string, Lookup>();
  const lookupFor = (profile: string): Lookup => {
    let found = lookups.get(profile);
    if (!found) {
      found = new Lookup(store, wording, () => profiles.view(profile));
      lookups.set(profile, found);
    }
    return found;
  };
  const lookup = lookupFor('default');
  const answerLookup: RunsDeps['lookup'] = async (request, profile) => {
    try {
      const lookup = lookupFor(profile);
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
      upstream: (address, args, options) => upstream.callTool(address, args, options),
      ready: (namespace, connection) => upstream.ready(namespace, connection),
      recheck: (namespace, attempt) => recheck.recheck(namespace, attempt),
      lookup: answerLookup,
      view: (profile) => profiles.view(profile),
      scrubbing: hubSecrets,
      wording,
      ...(deps.limits ? { limits: deps.limits } : {}),
    });
  return {
    sources,
    drafts: new SourceDrafts({ store, sources, secrets, clock, random }),
    skills: new Skills(store, clock),
    upstream,
    lookup,
    lookupFor,
    profiles,
    desk: createDesk({
      store,
      clock,
      random,
      wording,
      toReview: (namespace) => sources.pendingReview(namespace).length,
    }),
    secrets: hubSecrets,
    pages: new PageAccess({ store, clock, random }),
    wording,
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

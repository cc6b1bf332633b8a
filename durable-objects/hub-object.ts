/**
 * HubObject: one Durable Object per hub, and the hosted hub's engine. It owns the hub's SQLite
 * through engine/store's HubStore (opened over ctx.storage with drizzle's durable-sqlite driver
 * and migrated inside blockConcurrencyWhile, so no request sees a half-migrated store), and
 * the engine over it (engine/engine.ts): HTTP sources through the same connector as the local
 * hub, runs in Worker Loader isolates.
 *
 * Over RPC it answers the MCP surface's operations for one profile (`profileSurface` first: the
 * profile's mode and, in direct mode, its tools; then search, describe, execute, resume, a direct
 * tool's call and its run's result, the skills; and the client prompt's ask/check/answer, the
 * signed path by which a person's answer in the client is recorded) and the management API's
 * (`hub push`'s plan and apply, `hub status`; see hosted-configuration.ts), each as a `HubAnswer`
 * so a HubError's code survives the trip; and `sandboxBridge`, the guest bridge's route into this
 * object (sandbox-bridge.ts, route `hub`): a guest call must run in this object's context, since
 * it journals to this object's storage.
 *
 * Over `fetch` it renders its person's dashboard (dashboard/), for requests the Worker forwards
 * after checking their sign-in (signed-in-header.ts says who); connection secrets are kept
 * encrypted in its storage (encrypted-secret-store.ts) when the Worker has a SECRETS_KEY, and so
 * are OAuth grants and the sign-ins to sources waiting for their callback (source-sign-in.ts).
 *
 * Housekeeping rides on the Durable Object alarm (hub-housekeeping.ts): after each run that may
 * leave a request open, and once a day, `alarm()` sweeps and sets the next alarm at the earliest
 * open expiry; a run that starts waiting notifies its person.
 */
import { DurableObject } from 'cloudflare:workers';
import { drizzle } from 'drizzle-orm/durable-sqlite';
import type { Hono } from 'hono';
import { createDashboard, type DashboardEnv } from '../dashboard/dashboard.tsx';
import { ConfigurationPush } from '../engine/configuration/push.ts';
import type { PrivateAddresses } from '../engine/connectors/guarded-fetch.ts';
import { KindConnector } from '../engine/connectors/kind-connector.ts';
import { McpConnector } from '../engine/connectors/mcp-connector.ts';
import { OpenApiConnector } from '../engine/connectors/openapi-connector.ts';
import {
  CONFIGURATION_FORMAT,
  type HostedStatus,
  type PlanAnswer,
} from '../engine/contracts/configuration.ts';
import type { ExecuteEnvelope } from '../engine/contracts/envelope.ts';
import { DEFAULT_PROFILE, type ProfileMode } from '../engine/contracts/profiles.ts';
import type { PromptOutcome, PromptRequest } from '../engine/contracts/prompt.ts';
import { createEngine, type Engine } from '../engine/engine.ts';
import { HubError } from '../engine/errors.ts';
import { type HubAnswer, toAnswer } from '../engine/hub-answer.ts';
import type { HubHealth } from '../engine/hub-health.ts';
import type { HubStore } from '../engine/ports.ts';
import { ClientPrompt } from '../engine/runs/client-prompt.ts';
import { resumeDecidedOneCall } from '../engine/runs/one-call-resume.ts';
import { hubOwnSecrets } from '../engine/secrets/hub-secrets.ts';
import { SourceSignIns } from '../engine/sources/source-sign-in.ts';
import { openHubStore } from '../engine/store/hub-store.ts';
import * as schema from '../engine/store/schema.ts';
import type { SyncDb } from '../engine/store/sync-db.ts';
import type { DirectTool } from '../engine/surface/direct-tools.ts';
import { engineSurfaceDeps } from '../engine/surface/engine-deps.ts';
import type { SurfaceDeps } from '../engine/surface/index.ts';
import type { SearchArgs } from '../engine/surface/inputs.ts';
import type { ServedFile, ServedSkill } from '../engine/surface/skill-resources.ts';
import { cryptoRandom, systemClock } from '../engine/system.ts';
import migrations from '../migrations/migrations.js';
import pkg from '../package.json';
import { EncryptedSecretStore } from './encrypted-secret-store.ts';
import { hostedCannotRun, waitingRuns } from './hosted-configuration.ts';
import { hostedWording } from './hosted-wording.ts';
import type { HubEnv } from './hub-env.ts';
import { HubHousekeeping } from './hub-housekeeping.ts';
import { type HubNotifications, hubNotifications } from './hub-notifications.ts';
import { answerBridgeCall, type BridgeProps, type BridgeRouter } from './sandbox-bridge.ts';
import { readSignedIn } from './signed-in-header.ts';
import { WorkerLoaderSandbox } from './worker-loader-sandbox.ts';

/** What the Worker reads of a profile before serving it (HubObject.profileSurface). */
export interface ProfileSurface {
  mode: ProfileMode;
  /** Direct mode: the tools it shows now, scrubbed. */
  tools?: DirectTool[];
}

/** The SandboxBridge entrypoint as `ctx.exports` holds it (flag `enable_ctx_exports`). */
interface BridgeExports {
  SandboxBridge(options: { props: BridgeProps }): Fetcher;
}

/** What a source's consent page calls the hub, as it calls the local hub (upstream-sign-in.ts). */
export const SOURCE_CLIENT_NAME = 'capabilities hub';

export class HubObject extends DurableObject<HubEnv> implements BridgeRouter {
  #store: HubStore | undefined;
  #engine: Engine | undefined;
  #clientPrompt: ClientPrompt | undefined;
  #dashboard: Hono<DashboardEnv> | undefined;
  #push: ConfigurationPush | undefined;
  #secretStore: EncryptedSecretStore | null | undefined;
  #notifications: HubNotifications | undefined;
  #housekeeper: HubHousekeeping | undefined;
  #hubId = '';

  constructor(ctx: DurableObjectState, env: HubEnv) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      const db: SyncDb = drizzle(ctx.storage, { schema });
      this.#store = openHubStore(db, migrations, Date.now(), 'the hub Durable Object');
      this.#hubId = this.#store.claimHubId(`hub_${crypto.randomUUID().replaceAll('-', '')}`);
    });
  }

  /** The store, for code running inside this object (and the store's conformance runner). */
  get store(): HubStore {
    if (!this.#store) throw new Error('HubObject used before its store was opened');
    return this.#store;
  }

  /** The engine over this object's store, built on first use. */
  get engine(): Engine {
    this.#engine ??= createEngine({
      store: this.store,
      secrets: this.#secrets(),
      connector: new KindConnector(
        new McpConnector({
          version: pkg.version,
          wording: hostedWording,
          // Sources reach only the public internet unless a development setting allows more.
          privateAddresses: this.#privateAddresses(),
        }),
        // No file reader: the hosted hub reads OpenAPI documents from URLs only.
        new OpenApiConnector({
          privateAddresses: this.#privateAddresses(),
        }),
      ),
      clock: systemClock,
      random: cryptoRandom,
      wording: hostedWording,
      // The hub's own secrets: the bearer token and the client-prompt key.
      ownSecrets: hubOwnSecrets(this.store, [this.env.HUB_TOKEN]),
      sandbox: () => {
        const loader = this.env.LOADER;
        if (!loader) {
          throw new HubError(
            'unavailable',
            'this Worker has no Worker Loader binding; add [[worker_loaders]] binding = "LOADER" to wrangler.toml',
          );
        }
        const exports = (this.ctx as unknown as { exports: BridgeExports }).exports;
        return new WorkerLoaderSandbox({
          loader,
          bridge: (props) => exports.SandboxBridge({ props }),
          hub: this.#name(),
          route: 'hub',
        });
      },
    });
    return this.#engine;
  }

  async health(): Promise<HubHealth> {
    return { hubId: this.#hubId, schemaVersion: this.store.schemaVersion };
  }

  /**
   * What the Worker needs to serve `profile` before it builds the MCP server: its mode and, in
   * direct mode, its visible tools (scrubbed); `not_found` naming the profiles there are.
   */
  async profileSurface(profile: string): Promise<HubAnswer<ProfileSurface>> {
    return toAnswer(() => {
      const mode = this.engine.profiles.get(profile).mode;
      const direct = this.#surface(profile).direct;
      return { mode, ...(direct ? { tools: [...direct.tools()] } : {}) };
    });
  }

  async search(input: SearchArgs, profile = DEFAULT_PROFILE): Promise<HubAnswer<string>> {
    return toAnswer(() => this.#surface(profile).search(input));
  }

  async describe(targets: string[], profile = DEFAULT_PROFILE): Promise<HubAnswer<string>> {
    return toAnswer(() => this.#surface(profile).describe(targets));
  }

  async execute(code: string, profile = DEFAULT_PROFILE): Promise<HubAnswer<ExecuteEnvelope>> {
    return toAnswer(async () => this.#afterRun(await this.#surface(profile).execute(code)));
  }

  async resume(runId: string, profile = DEFAULT_PROFILE): Promise<HubAnswer<ExecuteEnvelope>> {
    return toAnswer(async () => this.#afterRun(await this.#surface(profile).resume(runId)));
  }

  /** A direct-mode profile's tool called: a one-call run of that profile. */
  async directCall(
    profile: string,
    address: string,
    args: Record<string, unknown>,
  ): Promise<HubAnswer<ExecuteEnvelope>> {
    return toAnswer(async () => this.#afterRun(await this.#direct(profile).call(address, args)));
  }

  /** The value a completed run of a direct-mode profile returned, whole. */
  async runResult(profile: string, runId: string): Promise<HubAnswer<unknown>> {
    return toAnswer(() => this.#direct(profile).result(runId));
  }

  /** The skills `profile` shows, with their front matter and files (scrubbed). */
  async skillList(profile: string): Promise<HubAnswer<ServedSkill[]>> {
    return toAnswer(async () => [...((await this.#surface(profile).skills?.list()) ?? [])]);
  }

  /** One file of a skill `profile` shows (text scrubbed); undefined for any other. */
  async skillFile(profile: string, name: string, path: string): Promise<HubAnswer<ServedFile | undefined>> {
    return toAnswer(async () => this.#surface(profile).skills?.file(name, path));
  }

  /** Approvals in the client's prompt: forms and a signed state for a waiting run (client-prompt.ts). */
  async promptAsk(runId: string): Promise<HubAnswer<PromptRequest | undefined>> {
    return toAnswer(() => this.#prompt().ask(runId));
  }

  /** Refuses (a HubError) a state the prompt would not accept now. */
  async promptCheck(state: string): Promise<HubAnswer<void>> {
    return toAnswer(() => this.#prompt().check(state));
  }

  /** Records a person's answers given in the client's prompt, once, through the signed state. */
  async promptAnswer(
    state: string,
    responses: Record<string, unknown>,
    who: string,
  ): Promise<HubAnswer<PromptOutcome>> {
    return toAnswer(() => this.#prompt().answer(state, responses, who));
  }

  /** `hub push` without applying: what applying the pushed configuration would do, and the plan's hash. */
  async configurationPlan(body: unknown): Promise<HubAnswer<PlanAnswer>> {
    return toAnswer(() => this.#configurationPush().plan(body));
  }

  /** `hub push` applied: only for the hash of the plan as it is now, all at once or not at all. */
  async configurationApply(body: unknown): Promise<HubAnswer<PlanAnswer>> {
    return toAnswer(() => this.#configurationPush().apply(body));
  }

  /** `hub status`: this hub, its sources with their health, runs waiting for a person, the last plan applied. */
  async hostedStatus(login?: string): Promise<HubAnswer<HostedStatus>> {
    return toAnswer(async () => {
      const { sources, lastPlan } = await this.#configurationPush().status();
      return {
        format: CONFIGURATION_FORMAT,
        hubId: this.#hubId,
        schemaVersion: this.store.schemaVersion,
        ...(login === undefined ? {} : { login }),
        sources,
        waiting: waitingRuns(this.engine.desk.runs),
        ...(lastPlan === undefined ? {} : { lastPlan }),
      };
    });
  }

  /**
   * The dashboard of this hub (dashboard/, the same pages as the local hub's), for the person
   * the Worker signed in: the Worker forwards their requests here with who they are
   * (signed-in-header.ts). A request without that header is refused: it did not come through
   * the Worker's sign-in.
   */
  override async fetch(request: Request): Promise<Response> {
    this.#dashboard ??= createDashboard({
      desk: this.engine.desk,
      clock: systemClock,
      wording: this.engine.wording,
      review: this.engine.sources,
      adding: this.engine.drafts,
      signIns: this.#signIns(),
      notify: this.#notifying().desk,
      decided: (runId) => resumeDecidedOneCall(this.engine, runId),
      // The Worker's sign-in routes end the session (worker/sign-in/routes.ts), checking its CSRF token.
      signOut: '/logout',
      session: async (c, next) => {
        const signedIn = readSignedIn(c.req.raw);
        if (!signedIn) return c.text('Forbidden: sign in through the hub.', 403);
        c.set('session', { who: signedIn.who, csrf: signedIn.csrf, scope: { kind: 'dashboard' } });
        await next();
      },
    });
    return this.#dashboard.fetch(request);
  }

  /** The guest bridge's route into this object (sandbox-bridge.ts). */
  async sandboxBridge(key: string, method: 'call' | 'lookup', args: unknown[]): Promise<string> {
    return answerBridgeCall(key, method, args);
  }

  /** Sweeps runs and sets the next alarm (hub-housekeeping.ts). */
  override async alarm(): Promise<void> {
    await this.#housekeeping().sweep();
  }

  /** A run may leave a request open, and every run is pruned one day: keep an alarm set. */
  #afterRun(envelope: ExecuteEnvelope): Promise<ExecuteEnvelope> {
    return this.#housekeeping().afterRun(envelope);
  }

  #housekeeping(): HubHousekeeping {
    this.#housekeeper ??= new HubHousekeeping({
      storage: this.ctx.storage,
      waitUntil: (promise) => this.ctx.waitUntil(promise),
      engine: this.engine,
      store: this.store,
      signIns: () => this.#signIns(),
      notifier: () => this.#notifying().notifier,
    });
    return this.#housekeeper;
  }

  #notifying(): HubNotifications {
    this.#notifications ??= hubNotifications({
      store: this.store,
      secrets: this.#secrets(),
      clock: systemClock,
      random: cryptoRandom,
      scrubber: () => this.engine.secrets.scrubber,
      privateAddresses: this.#privateAddresses(),
    });
    return this.#notifications;
  }

  /**
   * The surface's operations for one profile over this object's engine: the same rules as the
   * local hub's. Built for each request (cheap: the engine keeps each profile's lookup), so a
   * profile pushed or edited since is served as it is now; an unknown profile is `not_found`.
   */
  #surface(profile: string): SurfaceDeps {
    this.engine.profiles.get(profile);
    return engineSurfaceDeps(this.engine, { version: pkg.version, profile });
  }

  /** A direct-mode profile's operations; `invalid_input` for a profile in code mode. */
  #direct(profile: string): NonNullable<SurfaceDeps['direct']> {
    const direct = this.#surface(profile).direct;
    if (!direct)
      throw new HubError('invalid_input', `the profile "${profile}" serves code mode, not direct tools`);
    return direct;
  }

  #prompt(): ClientPrompt {
    this.#clientPrompt ??= new ClientPrompt({
      store: this.store,
      hubId: this.#hubId,
      clock: systemClock,
      random: cryptoRandom,
      wording: this.engine.wording,
    });
    return this.#clientPrompt;
  }

  /** Pushes into this hub, over its store and the engine's secrets; what it cannot run is skipped. */
  #configurationPush(): ConfigurationPush {
    this.#push ??= new ConfigurationPush({
      store: this.store,
      secrets: this.#secrets(),
      hubSecrets: this.engine.secrets,
      clock: systemClock,
      random: cryptoRandom,
      cannotRun: hostedCannotRun(this.#privateAddresses() === 'allow'),
    });
    return this.#push;
  }

  /** Signing this hub in to sources that ask for OAuth; pending sign-ins wait encrypted, like secrets. */
  #signIns(): SourceSignIns {
    return new SourceSignIns({
      secrets: this.#secrets(),
      clock: systemClock,
      random: cryptoRandom,
      privateAddresses: this.#privateAddresses(),
      clientName: SOURCE_CLIENT_NAME,
    });
  }

  /** Connection secrets, encrypted at rest under this hub's own key; none without SECRETS_KEY. */
  #secrets(): EncryptedSecretStore | undefined {
    if (this.#secretStore === undefined) {
      const key = this.env.SECRETS_KEY;
      // The key is derived from the hub's name: an object reached without one (tests' unique ids) keeps no secrets.
      const name = this.ctx.id.name;
      this.#secretStore = key && name ? new EncryptedSecretStore(this.ctx.storage, key, name) : null;
    }
    return this.#secretStore ?? undefined;
  }

  /** Whether this hub's sources and notifications may reach private addresses (development only). */
  #privateAddresses(): PrivateAddresses {
    return this.env.ALLOW_PRIVATE_UPSTREAMS === '1' ? 'allow' : 'refuse';
  }

  /** The name this object was reached by (the Worker's HUB_NAME), which the bridge routes by. */
  #name(): string {
    const name = this.ctx.id.name;
    if (!name) throw new Error('a HubObject must be reached through idFromName');
    return name;
  }
}

/**
 * class ConfigurationPush: the receiving end of `hub push` (spec: The CLI, "Hosted"; J5). `plan`
 * answers what applying a pushed configuration would do and the plan's hash; `apply` does it, only
 * for the hash of the plan as it is at that moment, and all at once.
 *
 * The hash is SHA-256 over the canonical JSON of three things: the plan; this hub's configuration
 * it was made against (so any change to it since, even one the plan would not show, refuses an old
 * hash); and an HMAC of each secret value sent, under a key this hub keeps (so a value changed
 * after the person consented refuses the hash, and the hash says nothing of any value).
 *
 * Applying is one store transaction: the plan is made again inside it and must be the one hashed,
 * then every record changes and every secret is written (encrypted before the transaction began),
 * or, if anything fails, none is. A skill the plan adds or changes comes with its files, which must
 * make exactly the record the plan was made from (its name, description, text and digest: the
 * hash covers the record, so it binds the bytes); profiles and skills the push does not carry go. A source the push changes is replaced whole (its manifest,
 * reviews, connections and rules as pushed); one it does not carry is removed with its secrets.
 * Every value sent is scrubbed from then on, like any secret the hub holds.
 *
 * Only a person's own client reaches this (the Worker lets only a token with the configure scope,
 * which a person grants the CLI on the consent page); nothing an agent holds can.
 */
import { z } from 'zod';
import { canonicalJson } from '../canonical-json.ts';
import {
  ApplyRequest,
  CONFIGURATION_FORMAT,
  type ConfiguredSource,
  type HostedStatus,
  type HubConfiguration,
  PLAN_CHANGED,
  type PlanAnswer,
  PushRequest,
} from '../contracts/configuration.ts';
import type { Connection } from '../contracts/connections.ts';
import { sha256Hex } from '../digest.ts';
import { HubError } from '../errors.ts';
import { hex } from '../hex.ts';
import type { Clock, HubStore, Random } from '../ports.ts';
import type { HubSecrets } from '../secrets/hub-secrets.ts';
import type { PreparedSecretWrite, TransactionalSecretStore } from '../secrets/secret-store.ts';
import { rescrubStored } from '../sources/scrub-listed.ts';
import { checkWhole } from './check-whole.ts';
import { configurationOf } from './configuration-of.ts';
import { type CannotRun, planOf, type SecretFacts, sourceWhere } from './plan.ts';
import { verifiedSkills, writeSkillsAndProfiles } from './push-views.ts';

export interface PushDeps {
  store: HubStore;
  /** Absent where the host keeps no secrets: then a push may carry none. */
  secrets?: TransactionalSecretStore | undefined;
  hubSecrets: HubSecrets;
  clock: Clock;
  random: Random;
  /** Why this host cannot run a source (a stdio server, a private address where refused), or undefined. */
  cannotRun: CannotRun;
}

/** The setting that holds the last plan applied: `{ hash, appliedAt }`. */
export const LAST_PLAN_SETTING = 'last_plan';
/** The last plan applied, as the setting keeps it. */
const LastPlan = z.object({ hash: z.string(), appliedAt: z.number() });

/** The setting that holds the key secret values are HMACed under for the plan's hash. */
const HASH_KEY_SETTING = 'plan_hash_key';

type Parsed = { configuration: HubConfiguration; secrets: Record<string, string> };

/** A plan with what it was made from, so `apply` can make it again and compare. */
interface Planned {
  answer: PlanAnswer;
  basis: string;
  facts: SecretFacts;
  /** The HMAC of each value sent. */
  sealed: Record<string, string>;
}

export class ConfigurationPush {
  readonly #deps: PushDeps;

  constructor(deps: PushDeps) {
    this.#deps = deps;
  }

  async plan(request: unknown): Promise<PlanAnswer> {
    return (await this.#plan(await this.#parse(PushRequest, request))).answer;
  }

  async apply(request: unknown): Promise<PlanAnswer> {
    const parsed = await this.#parse(ApplyRequest, request);
    const planned = await this.#plan(parsed);
    if (planned.answer.hash !== parsed.planHash) throw changedSinceShown();
    const { store } = this.#deps;
    const now = this.#deps.clock.now();
    const writes = await this.#prepareSecrets(parsed, planned);
    const skills = await verifiedSkills(parsed, planned.answer.plan, now);
    const values = Object.values(parsed.secrets);
    store.atomically(() => {
      // Made again inside the transaction: nothing can change the hub between this and the writes.
      const own = configurationOf(store);
      const again = planOf(own, parsed.configuration, planned.facts, this.#deps.cannotRun);
      if (basisOf(again, own, parsed.configuration, planned.sealed) !== planned.basis) {
        throw changedSinceShown();
      }
      this.#write(own, parsed, planned, now);
      writeSkillsAndProfiles(store, own, parsed.configuration, planned.answer.plan, skills, now);
      for (const write of writes) write();
      store.putSetting(LAST_PLAN_SETTING, JSON.stringify({ hash: planned.answer.hash, appliedAt: now }));
    });
    if (values.length > 0) {
      this.#deps.hubSecrets.learn(values);
      rescrubStored(store, this.#deps.hubSecrets.scrubber, now);
    }
    return { ...planned.answer, appliedAt: now };
  }

  /** The hub's sources with their health, and the last plan applied, for `hub status`. */
  async status(): Promise<Pick<HostedStatus, 'sources' | 'lastPlan'>> {
    const { store } = this.#deps;
    const sources = [];
    for (const source of store.listSources()) {
      const tools = store.getManifest(source.namespace)?.tools.length;
      let health = 'ready';
      const blocked = this.#deps.cannotRun(source);
      if (blocked !== undefined) health = blocked;
      else if (tools === undefined) health = 'no tool list yet';
      else {
        const missing = await this.#missingSecrets(store.listConnections(source.namespace));
        if (missing.length > 0) {
          health = this.#deps.secrets
            ? `no value yet for ${missing.join(', ')}: enter it on the source's page`
            : `no value for ${missing.join(', ')}: this hub keeps no secrets (its SECRETS_KEY is not set)`;
        }
      }
      sources.push({
        namespace: source.namespace,
        kind: source.kind,
        where: sourceWhere(source),
        tools: tools ?? 0,
        health,
      });
    }
    const last = LastPlan.safeParse(JSON.parse(store.getSetting(LAST_PLAN_SETTING) ?? 'null'));
    return { sources, ...(last.success ? { lastPlan: last.data } : {}) };
  }

  async #parse<T extends typeof PushRequest | typeof ApplyRequest>(
    schema: T,
    request: unknown,
  ): Promise<ReturnType<T['parse']>> {
    const format = (request as { configuration?: { format?: unknown } } | null)?.configuration?.format;
    if (typeof format === 'number' && format !== CONFIGURATION_FORMAT) {
      throw new HubError(
        'conflict',
        `this hub reads configuration format ${CONFIGURATION_FORMAT} and the push is format ${format}: ` +
          (format > CONFIGURATION_FORMAT
            ? 'the hosted hub is older than your CLI; try again once it is updated.'
            : 'update capabilities on this computer (npm install -g capabilities), then push again.'),
      );
    }
    const result = schema.safeParse(request);
    if (!result.success) {
      const issue = result.error.issues[0];
      const where = issue?.path.join('.') || 'the request';
      throw new HubError(
        'invalid_input',
        `the push is not a configuration this hub reads: ${where}: ${issue?.message}`,
      );
    }
    const parsed = result.data as ReturnType<T['parse']>;
    checkWhole(parsed as Parsed);
    return parsed;
  }

  async #plan(parsed: Parsed): Promise<Planned> {
    const facts = await this.#secretFacts(parsed);
    const own = configurationOf(this.#deps.store);
    const plan = planOf(own, parsed.configuration, facts, this.#deps.cannotRun);
    const sealed = await this.#sealedValues(parsed.secrets);
    const basis = basisOf(plan, own, parsed.configuration, sealed);
    return { answer: { plan, hash: await sha256Hex(basis) }, basis, facts, sealed };
  }

  /** Which keys the hub holds a value for, and how each value sent compares with the held one. */
  async #secretFacts(parsed: Parsed): Promise<SecretFacts> {
    const store = this.#deps.secrets;
    const sent = new Map<string, 'new' | 'same' | 'different'>();
    const held = new Set<string>();
    const keys = new Set<string>();
    for (const entry of parsed.configuration.sources) {
      for (const connection of entry.connections) {
        for (const ref of connection.secrets) {
          keys.add(ref.key);
          if (ref.delivery.kind === 'oauth' && parsed.secrets[ref.key] !== undefined) {
            throw new HubError(
              'invalid_input',
              `the push carries the sign-in of "${entry.source.namespace}/${connection.name}", and a push never carries a sign-in's tokens: push without it, then sign in again on the hosted hub (the source's page)`,
            );
          }
        }
      }
    }
    for (const connection of this.#deps.store.listConnections()) {
      for (const ref of connection.secrets) keys.add(ref.key);
    }
    if (!store) {
      if (Object.keys(parsed.secrets).length > 0) {
        throw new HubError(
          'unavailable',
          'this hosted hub keeps no secrets (its SECRETS_KEY is not set); push without --secrets, or ask its operator to set one',
        );
      }
      return { sent, held };
    }
    for (const key of keys) {
      const value = await store.get(key);
      if (value !== undefined) held.add(key);
      const pushed = parsed.secrets[key];
      if (pushed !== undefined)
        sent.set(key, value === undefined ? 'new' : value === pushed ? 'same' : 'different');
    }
    return { sent, held };
  }

  /** HMAC-SHA-256 of each value sent, under this hub's own key: what the hash covers of them. */
  async #sealedValues(secrets: Record<string, string>): Promise<Record<string, string>> {
    const keys = Object.keys(secrets).sort();
    if (keys.length === 0) return {};
    const material = this.#deps.store.claimSetting(HASH_KEY_SETTING, hex(this.#deps.random.bytes(32)));
    const key = await crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(material),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const sealed: Record<string, string> = {};
    for (const name of keys) {
      const mac = await crypto.subtle.sign(
        'HMAC',
        key,
        new TextEncoder().encode(`${name}\n${secrets[name]}`),
      );
      sealed[name] = hex(new Uint8Array(mac));
    }
    return sealed;
  }

  /**
   * Each value to write (encrypted now) and each to delete, as the plan says: a value sent for a
   * source the plan skips is not kept.
   */
  async #prepareSecrets(parsed: Parsed, planned: Planned): Promise<PreparedSecretWrite[]> {
    const store = this.#deps.secrets;
    if (!store) return [];
    const writes: PreparedSecretWrite[] = [];
    const secrets = planned.answer.plan.sources.flatMap((source) =>
      source.connections.flatMap((connection) => connection.secrets),
    );
    // A key a pushed connection still points at is never deleted for another that lets it go.
    const kept = new Set(secrets.filter((s) => s.value !== 'remove').map((s) => s.key));
    for (const secret of secrets) {
      const value = parsed.secrets[secret.key];
      if ((secret.value === 'set' || secret.value === 'replace') && value !== undefined) {
        writes.push(await store.prepareSet(secret.key, value));
      } else if (
        secret.value === 'forget' ||
        secret.value === 'sign-in' ||
        (secret.value === 'remove' && !kept.has(secret.key))
      ) {
        writes.push(store.prepareDelete(secret.key));
      }
    }
    return writes;
  }

  /** Makes the hub's configuration the pushed one, inside the apply's transaction. */
  #write(own: HubConfiguration, parsed: Parsed, planned: Planned, now: number): void {
    const { store } = this.#deps;
    const mine = new Map(own.sources.map((entry) => [entry.source.namespace, entry]));
    const byNamespace = new Map(parsed.configuration.sources.map((entry) => [entry.source.namespace, entry]));
    for (const source of planned.answer.plan.sources) {
      if (source.change === 'keep' || source.change === 'skip') continue;
      const current = mine.get(source.namespace);
      if (current) store.removeSource(source.namespace);
      if (source.change === 'remove') continue;
      const entry = byNamespace.get(source.namespace);
      if (entry) this.#store(entry, current, planned.facts, now);
    }
  }

  /** Stores one pushed source whole, keeping when each held value was set (the scrubber reads by it). */
  #store(
    entry: ConfiguredSource,
    current: ConfiguredSource | undefined,
    facts: SecretFacts,
    now: number,
  ): void {
    const { store } = this.#deps;
    store.addSource({ ...entry.source, addedAt: current?.source.addedAt ?? now, updatedAt: now });
    // Read as new by everything that notices a manifest by when it was fetched (the search index).
    if (entry.manifest) store.putManifest({ ...entry.manifest, fetchedAt: now });
    for (const review of entry.reviews) store.putReview(review);
    const heldSetAt = new Map(
      (current?.connections ?? []).flatMap((c) => c.secrets.map((ref) => [ref.key, ref.setAt] as const)),
    );
    for (const connection of entry.connections) {
      store.putConnection({
        ...connection,
        secrets: connection.secrets.map((ref) => {
          const sent = facts.sent.get(ref.key);
          const setAt = sent === 'new' || sent === 'different' ? now : heldSetAt.get(ref.key);
          const { setAt: _local, ...rest } = ref;
          return setAt === undefined ? rest : { ...rest, setAt };
        }),
      });
    }
    for (const rule of entry.policies) store.addPolicyRule(rule);
  }

  async #missingSecrets(connections: readonly Connection[]): Promise<string[]> {
    const missing: string[] = [];
    for (const connection of connections) {
      for (const ref of connection.secrets) {
        if ((await this.#deps.secrets?.get(ref.key)) === undefined)
          missing.push(`${connection.namespace}/${connection.name}`);
      }
    }
    return [...new Set(missing)];
  }
}

/**
 * What the hash is taken over (see the file's docblock): the plan, this hub's configuration and the
 * pushed one whole (so nothing the plan words more briefly can differ at apply: a tool's text, an
 * allowed host), and the sealed values. When this hub last fetched a manifest is left out.
 */
function basisOf(
  plan: PlanAnswer['plan'],
  own: HubConfiguration,
  incoming: HubConfiguration,
  sealed: Record<string, string>,
): string {
  const hub = own.sources.map((entry) => ({
    ...entry,
    manifest: entry.manifest && { ...entry.manifest, fetchedAt: 0 },
  }));
  return canonicalJson({ plan, hub, incoming, secrets: sealed });
}

function changedSinceShown(): HubError {
  return new HubError(
    'conflict',
    `${PLAN_CHANGED}, or the plan is not the one shown; nothing was applied. Push again to see the plan as it is now.`,
  );
}

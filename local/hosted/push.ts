/**
 * `hub push` without a terminal: ask the hosted hub for a plan, offer each secret of each pushed
 * connection to the person (with --secrets), plan again with the values they allowed, and apply
 * that plan by its hash once they consent. The hosted hub is reached through a HostedClient; the
 * person through the callbacks the command (or a test) hands in.
 *
 * Invariants: a secret value leaves this machine only after `consent` said yes to that one
 * secret, and only in the request body; it is never shown or returned. A stdio source is never
 * offered a secret (the plan skips it hosted), and an OAuth sign-in is never offered: its tokens
 * belong to this machine (`signInsKept`). Applying sends the exact hash of the plan the
 * person was shown; a hosted hub that changed since answers 409 and nothing is applied.
 */
import {
  type ApplyRequest,
  type HubConfiguration,
  PLAN_CHANGED,
  PlanAnswer,
  type PlannedSecret,
  type PushRequest,
} from '../../engine/contracts/configuration.ts';
import type { Connection } from '../../engine/contracts/connections.ts';
import { HubError, isHubError } from '../../engine/errors.ts';
import type { SecretStore } from '../../engine/secrets/secret-store.ts';
import { HOSTED_PATHS, type HostedClient } from './hosted-api.ts';
import { shortHash } from './plan-text.ts';

/** One secret of a pushed connection, as the person is asked about it. */
export interface SecretOffer {
  namespace: string;
  connection: string;
  /** The secret-store key (a name, never the value). */
  key: string;
  /** Where the value reaches the source, in the hosted hub's words (or the key when it gave none). */
  delivery: string;
  /** What the hosted hub holds now, from the plan made without secrets. */
  hosted: PlannedSecret['value'] | undefined;
}

/** Asks the hosted hub for a plan of `configuration` with `secrets` (values by key). */
export function requestPlan(
  client: HostedClient,
  configuration: HubConfiguration,
  secrets: Record<string, string> = {},
): Promise<PlanAnswer> {
  const body: PushRequest = { configuration, secrets };
  return client.post(HOSTED_PATHS.plan, body, PlanAnswer);
}

/** Applies the plan whose hash the person saw; a plan that changed since is refused, nothing applied. */
export async function applyPlan(
  client: HostedClient,
  configuration: HubConfiguration,
  secrets: Record<string, string>,
  planHash: string,
  skillFiles: ApplyRequest['skillFiles'] = {},
): Promise<PlanAnswer> {
  const body: ApplyRequest = { configuration, secrets, planHash, skillFiles };
  try {
    return await client.post(HOSTED_PATHS.apply, body, PlanAnswer);
  } catch (error) {
    // Only the refusal of a changed plan: another conflict says what it is, as it came.
    if (!isHubError(error, 'conflict') || !error.message.startsWith(PLAN_CHANGED)) throw error;
    throw new HubError(
      'conflict',
      `the hosted hub at ${client.url} changed since plan ${shortHash(planHash)} was made, so nothing was applied; run \`capabilities hub push\` again to see the plan as it is now`,
      { cause: error },
    );
  }
}

/**
 * A connection of a pushed source that signs in with OAuth: its grant is never sent. Its tokens
 * were issued to this machine's loopback client, and the hosted hub refreshing them would rotate
 * them out from under this hub; the hosted hub cannot sign a source in itself yet.
 */
export interface SignInKept {
  namespace: string;
  connection: string;
}

/** Each connection of a source the push carries (not a stdio one, nor one the plan skips), with what the plan says of its secrets. */
function* pushedConnections(
  configuration: HubConfiguration,
  plan: PlanAnswer['plan'],
): Generator<{ namespace: string; connection: Connection; planned: readonly PlannedSecret[] }> {
  for (const { source, connections } of configuration.sources) {
    const planned = plan.sources.find((s) => s.namespace === source.namespace);
    if (source.kind === 'mcp-stdio' || planned?.change === 'skip') continue;
    for (const connection of connections) {
      const secrets = planned?.connections.find((c) => c.name === connection.name)?.secrets ?? [];
      yield { namespace: source.namespace, connection, planned: secrets };
    }
  }
}

/**
 * Every secret of every connection the push carries, except those of sources the plan skips
 * (a stdio source runs only locally, so its secrets never leave this machine) and OAuth sign-ins
 * (`signInsKept`).
 */
export function secretOffers(configuration: HubConfiguration, plan: PlanAnswer['plan']): SecretOffer[] {
  const offers: SecretOffer[] = [];
  for (const { namespace, connection, planned } of pushedConnections(configuration, plan)) {
    for (const ref of connection.secrets) {
      if (ref.delivery.kind === 'oauth') continue;
      const hosted = planned.find((s) => s.key === ref.key);
      offers.push({
        namespace,
        connection: connection.name,
        key: ref.key,
        delivery: hosted?.delivery ?? ref.key,
        hosted: hosted?.value,
      });
    }
  }
  return offers;
}

/** The pushed connections that sign in with OAuth, whose sign-in stays on this machine. */
export function signInsKept(configuration: HubConfiguration, plan: PlanAnswer['plan']): SignInKept[] {
  return [...pushedConnections(configuration, plan)]
    .filter(({ connection }) => connection.secrets.some((ref) => ref.delivery.kind === 'oauth'))
    .map(({ namespace, connection }) => ({ namespace, connection: connection.name }));
}

/** What became of the secrets offered: sent (consented, with a value), declined, or absent locally. */
export interface SecretsGathered {
  /** The values to send, by key. Never printed. */
  values: Record<string, string>;
  sent: SecretOffer[];
  declined: SecretOffer[];
  /** Offers the local secret store has no value for: left out. */
  absent: SecretOffer[];
}

/**
 * Reads each offered secret from the local store and asks `consent` for it, one at a time; a
 * value the store lacks is never asked about (`absent` is called instead) and left out.
 */
export async function gatherSecrets(
  offers: readonly SecretOffer[],
  store: Pick<SecretStore, 'get'>,
  consent: (offer: SecretOffer) => Promise<boolean>,
  absent: (offer: SecretOffer) => void,
): Promise<SecretsGathered> {
  const gathered: SecretsGathered = { values: {}, sent: [], declined: [], absent: [] };
  for (const offer of offers) {
    const value = await store.get(offer.key);
    if (value === undefined || value === '') {
      gathered.absent.push(offer);
      absent(offer);
      continue;
    }
    if (await consent(offer)) {
      gathered.values[offer.key] = value;
      gathered.sent.push(offer);
    } else {
      gathered.declined.push(offer);
    }
  }
  return gathered;
}

/** What `push` needs from the person and the machine. */
export interface PushDeps {
  client: HostedClient;
  configuration: HubConfiguration;
  /** With --secrets: where values are read, and the person's answer for each one. */
  secrets?: {
    store: Pick<SecretStore, 'get'>;
    consent(offer: SecretOffer): Promise<boolean>;
    absent(offer: SecretOffer): void;
  };
  /**
   * The files of these skills, as this hub keeps them (the ones the plan adds or changes; the
   * hosted hub checks them against the records the plan was made from).
   */
  skillFiles(names: readonly string[]): NonNullable<ApplyRequest['skillFiles']>;
  /** Shows the plan the person is asked to apply (never called for an empty plan). */
  show(answer: PlanAnswer): void;
  /** The person's consent to apply the plan shown; false leaves the hosted hub as it is. */
  confirmApply(answer: PlanAnswer): Promise<boolean>;
}

export interface PushOutcome {
  plan: PlanAnswer['plan'];
  /** The full hash of the plan shown (and applied, when `applied`). */
  hash: string;
  applied: boolean;
  appliedAt?: number;
  /** The secrets whose values were sent (keys and where they go, never values). */
  secretsSent: SecretOffer[];
  /** The secrets left out because the local store has no value for them. */
  secretsAbsent: SecretOffer[];
  /** The pushed connections that sign in with OAuth: their sign-in is never sent. */
  signInsKept: SignInKept[];
}

/** One push: plan, secrets (with consent), plan again, show, consent, apply. */
export async function push(deps: PushDeps): Promise<PushOutcome> {
  const { client, configuration } = deps;
  let answer = await requestPlan(client, configuration);
  let gathered: SecretsGathered = { values: {}, sent: [], declined: [], absent: [] };
  if (deps.secrets) {
    const { store, consent, absent } = deps.secrets;
    gathered = await gatherSecrets(secretOffers(configuration, answer.plan), store, consent, absent);
    // The hash covers the values, so the plan the person applies is the one made with them.
    if (gathered.sent.length > 0) answer = await requestPlan(client, configuration, gathered.values);
  }
  const outcome = {
    plan: answer.plan,
    hash: answer.hash,
    applied: false,
    secretsSent: gathered.sent,
    secretsAbsent: gathered.absent,
    signInsKept: signInsKept(configuration, answer.plan),
  };
  if (answer.plan.empty) return outcome;
  deps.show(answer);
  if (!(await deps.confirmApply(answer))) return outcome;
  const carried = answer.plan.skills.filter((skill) => skill.change === 'add' || skill.change === 'change');
  const files = deps.skillFiles(carried.map((skill) => skill.name));
  const applied = await applyPlan(client, configuration, gathered.values, answer.hash, files);
  return {
    ...outcome,
    plan: applied.plan,
    hash: applied.hash,
    applied: true,
    ...(applied.appliedAt === undefined ? {} : { appliedAt: applied.appliedAt }),
  };
}

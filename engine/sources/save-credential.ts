/**
 * Storing a secret a person entered, and the connection that points at it. An OAuth sign-in is
 * the connection's only credential: signing in drops every other secret it held (a header key
 * beside it would be a second Authorization), and a secret of another kind drops the sign-in;
 * the dropped values are deleted from the secret store. Other deliveries sit side by side (a
 * query key and a header key of one API). A secret too short to survive the scrubber's oracle is
 * refused. What called it (only a person's own input) is `Sources.saveCredential`'s to say.
 */
import type { Connection, SecretRef } from '../contracts/connections.ts';
import { deliveryName } from '../contracts/connections.ts';
import { HubError } from '../errors.ts';
import type { Clock, HubStore } from '../ports.ts';
import type { HubSecrets } from '../secrets/hub-secrets.ts';
import { parseGrant, secretValuesOf } from '../secrets/oauth-grant.ts';
import { type SecretStore, secretKey } from '../secrets/secret-store.ts';
import type { HostWording } from '../wording.ts';
import { rescrubStored } from './scrub-listed.ts';
import { storedSource } from './stored.ts';
import { heldSecrets } from './upstream.ts';

/**
 * The shortest secret a connection may hold. The scrubber replaces every secret in what leaves
 * the hub, which code that returns guesses could use as an oracle: a short secret could be found
 * that way, a real token (20 and more random characters) cannot.
 */
export const MIN_STORED_SECRET_LENGTH = 8;

export interface SaveCredentialDeps {
  store: HubStore;
  /** Absent where the host keeps no secrets: then nothing can be stored. */
  secrets?: SecretStore | undefined;
  clock: Clock;
  hubSecrets: HubSecrets;
  wording: HostWording;
}

/** Stores `value` as `namespace`'s connection `connectionName`'s secret, delivered as `delivery`. */
export async function saveCredential(
  deps: SaveCredentialDeps,
  namespace: string,
  connectionName: string,
  delivery: SecretRef['delivery'],
  value: string,
): Promise<Connection> {
  storedSource(deps.store, namespace, deps.wording);
  const secrets = heldSecrets(deps.secrets);
  if (value.trim() === '') throw new HubError('invalid_input', 'the secret is empty; nothing was stored');
  if (value.length < MIN_STORED_SECRET_LENGTH) {
    // Whatever leaves the hub is scrubbed of every secret it holds, so code could find a short
    // one by returning guesses and seeing which come back as [secret].
    throw new HubError(
      'invalid_input',
      `the secret is shorter than ${MIN_STORED_SECRET_LENGTH} characters, short enough to be guessed; nothing was stored. Use the service's full token or key.`,
    );
  }
  if (delivery.kind === 'oauth') longEnoughGrant(value, `${namespace}/${connectionName}`);
  const name = deliveryName(delivery);
  // `setAt` moves with every value entered, so every process serving this hub reads it again.
  const ref: SecretRef = {
    key: secretKey(namespace, connectionName, name),
    delivery,
    setAt: deps.clock.now(),
  };
  const existing = deps.store.getConnection(namespace, connectionName);
  const { others, dropped } = keptBeside(existing?.secrets ?? [], ref);
  await secrets.set(ref.key, value);
  deps.hubSecrets.learn(secretValuesOf(value));
  rescrubStored(deps.store, deps.hubSecrets.scrubber, deps.clock.now());
  const connection: Connection = {
    namespace,
    name: connectionName,
    isDefault: existing?.isDefault ?? deps.store.listConnections(namespace).every((c) => !c.isDefault),
    secrets: [...others, ref],
    createdAt: existing?.createdAt ?? deps.clock.now(),
  };
  deps.store.putConnection(connection);
  // Once the connection no longer points at them: a value that is gone is never delivered.
  for (const gone of dropped) await secrets.delete(gone.key);
  return connection;
}

/**
 * What a connection keeps beside `ref`, and what it drops: an `oauth` sign-in is exclusive (it
 * replaces every other secret, and any other secret replaces it); other deliveries coexist.
 */
function keptBeside(
  held: readonly SecretRef[],
  ref: SecretRef,
): { others: SecretRef[]; dropped: SecretRef[] } {
  const signsIn = ref.delivery.kind === 'oauth';
  const others: SecretRef[] = [];
  const dropped: SecretRef[] = [];
  for (const old of held) {
    if (old.key === ref.key) continue;
    const exclusive = signsIn || old.delivery.kind === 'oauth';
    (exclusive ? dropped : others).push(old);
  }
  return { others, dropped };
}

/**
 * Refuses a grant any of whose secrets is too short to keep: each token is scrubbed on its own,
 * so a short one could be found by returning guesses, whatever the length of the JSON around it.
 */
function longEnoughGrant(value: string, connection: string): void {
  const grant = parseGrant(value, connection);
  const secrets: [string, string | undefined][] = [
    ['access token', grant.access_token],
    ['refresh token', grant.refresh_token],
    ['client secret', grant.client_secret],
  ];
  for (const [what, secret] of secrets) {
    if (secret !== undefined && secret.length < MIN_STORED_SECRET_LENGTH) {
      throw new HubError(
        'invalid_input',
        `the sign-in's ${what} is shorter than ${MIN_STORED_SECRET_LENGTH} characters, short enough to be guessed; nothing was stored. ` +
          (what === 'client secret'
            ? "Use the client's full secret."
            : 'The service issues tokens too short for the hub to keep: give the connection an API key of the service instead, if it offers one.'),
      );
    }
  }
}

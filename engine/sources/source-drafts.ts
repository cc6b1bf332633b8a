/**
 * class SourceDrafts: adding a remote MCP server or an OpenAPI document in two steps, for a host
 * where a person adds sources from the dashboard (no CLI, no terminal prompt). `begin` inspects
 * the server (with the credential the person entered delivered, so a server that requires one can
 * be listed) or reads the document at its http(s) URL (which needs no credential: the document
 * says which its operations take), and keeps what it found as a source draft for
 * `DRAFT_LIFETIME_MS`: the record (what was shown) in the store, a server's credential's value in
 * the secret store under a draft key. The page between carries only the draft's id. `confirm`
 * stores exactly what was shown, under the namespace the person chose, and moves the credential
 * to the source's `default` connection: a server's from the draft key, a document's as typed on
 * the review for the first key it asks for (`keyAsk`). `cancel` and expiry delete the draft and
 * its secret.
 *
 * A confirmation covers what the person saw, never the server's answer of the moment: the tools
 * and contracts come from the draft, and each decision must carry the contract it was shown with.
 */

import { deliver, NO_CREDENTIALS } from '../connectors/connector.ts';
import { basicCredential } from '../connectors/openapi/security.ts';
import { type CredentialAsk, deliveryName, type SecretDelivery } from '../contracts/connections.ts';
import { Namespace } from '../contracts/names.ts';
import type { PolicyEffect } from '../contracts/policy.ts';
import type { SourceDraftRecord } from '../contracts/source-drafts.ts';
import type { Source } from '../contracts/sources.ts';
import { HubError } from '../errors.ts';
import { randomId } from '../hex.ts';
import type { Clock, HubStore, Random } from '../ports.ts';
import { grantSecretValues, type OAuthGrant } from '../secrets/oauth-grant.ts';
import { type SecretStore, secretKey } from '../secrets/secret-store.ts';
import { type ReviewItem, reviewItem } from './review.ts';
import { MIN_STORED_SECRET_LENGTH } from './save-credential.ts';
import type { Inspection, Sources } from './sources.ts';
import { heldSecrets } from './upstream.ts';

/** How long a draft waits for the person's Confirm. */
export const DRAFT_LIFETIME_MS = 10 * 60_000;

/** The connection a draft's credential becomes. */
export const DRAFT_CONNECTION = 'default';

/** A secret for a server's `default` connection, sent as `<header>: <scheme> <value>`. */
export interface ServerCredential {
  value: string;
  header: string;
  scheme: string;
}

/** What a person entered to add a remote source: a server (the default) or an OpenAPI document. */
export type NewRemoteSource =
  | {
      kind?: 'mcp-http' | undefined;
      url: string;
      credential?: ServerCredential | undefined;
      /** The grant of a sign-in to the server (source-sign-in.ts): listed with it, kept as its `default`. */
      grant?: OAuthGrant | undefined;
    }
  | {
      kind: 'openapi';
      /** The document's http(s) URL. */
      url: string;
      /** The API's base URL; absent: the document's first server (as `hub add --server`). */
      server?: string | undefined;
    };

/**
 * What a person typed on a document's review for its first key (`keyAsk`): the key, or for HTTP
 * basic a user and a password. Empty fields: no credential (it can be entered later).
 */
export interface EnteredKey {
  value?: string | undefined;
  user?: string | undefined;
  password?: string | undefined;
}

/** The first credential of a document a person can type (a key or HTTP basic): the one the review takes. */
export const keyAsk = (
  asks: readonly CredentialAsk[],
): (CredentialAsk & { delivery: SecretDelivery }) | undefined =>
  asks.find(
    (ask): ask is CredentialAsk & { delivery: SecretDelivery } =>
      ask.delivery !== undefined && ask.delivery.kind !== 'oauth',
  );

/** A draft as a page shows it: the record and its tools as review items. */
export interface OpenDraft {
  record: SourceDraftRecord;
  review: ReviewItem[];
}

export interface SourceDraftsDeps {
  store: HubStore;
  sources: Pick<Sources, 'inspect' | 'addSource' | 'saveCredential' | 'removeSource'>;
  secrets?: SecretStore | undefined;
  clock: Clock;
  random: Random;
}

const HEADER_NAME = /^[A-Za-z0-9-]{1,100}$/;
const SCHEME = /^[A-Za-z0-9._~+/-]{0,40}$/;

/** What each kind of remote source is called in a refusal of its URL. */
const CALLED = {
  'mcp-http': { whose: 'the server’s', not: 'a Streamable HTTP server' },
  openapi: { whose: 'the document’s', not: 'a document the dashboard reads' },
  server: { whose: 'the API server’s', not: 'an API server' },
} as const;

/** `url` as an http(s) URL, or an invalid_input that says what to give instead. */
export function remoteUrl(url: string, what: keyof typeof CALLED = 'mcp-http'): URL {
  const called = CALLED[what];
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new HubError('invalid_input', `That is not a URL; give ${called.whose} full address, https://…`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new HubError(
      'invalid_input',
      `A ${parsed.protocol} address is not ${called.not}; give its http:// or https:// address.`,
    );
  return parsed;
}

export class SourceDrafts {
  readonly #deps: SourceDraftsDeps;

  constructor(deps: SourceDraftsDeps) {
    this.#deps = deps;
  }

  /**
   * Inspects the server at `request.url` (or reads the OpenAPI document there) and keeps what was
   * found as a draft. Refused before anything is reached: a URL (or a document's API server) that
   * is not http(s), a credential too short to store, a header that is not one. A server or
   * document that cannot be reached or read throws (scrubbed, by Sources).
   */
  async begin(request: NewRemoteSource): Promise<OpenDraft> {
    await this.sweep();
    if (request.kind === 'openapi') return this.#keep(await this.#readDocument(request));
    const url = remoteUrl(request.url).href;
    if (request.grant) return this.#signedIn(url, request.grant);
    const credential = request.credential;
    const delivery = credential && this.#delivery(credential);
    const credentials =
      credential && delivery
        ? deliver(DRAFT_CONNECTION, [{ delivery, value: credential.value }])
        : NO_CREDENTIALS;
    const inspection = await this.#deps.sources.inspect({ kind: 'mcp-http', url }, undefined, credentials);
    return this.#keep(inspection, credential && delivery ? { delivery, value: credential.value } : undefined);
  }

  /** The server at `url` listed with a sign-in's grant, kept as the draft's credential (`oauth`). */
  async #signedIn(url: string, grant: OAuthGrant): Promise<OpenDraft> {
    heldSecrets(this.#deps.secrets);
    const delivered = deliver(DRAFT_CONNECTION, [{ delivery: { kind: 'oauth' }, value: grant.access_token }]);
    const value = JSON.stringify(grant);
    const credentials = { ...delivered, secrets: [...delivered.secrets, ...grantSecretValues(grant), value] };
    const inspection = await this.#deps.sources.inspect({ kind: 'mcp-http', url }, undefined, credentials);
    return this.#keep(inspection, { delivery: { kind: 'oauth' }, value });
  }

  /** The document at `request.url` read, its server the one given or its own. */
  async #readDocument(request: Extract<NewRemoteSource, { kind: 'openapi' }>): Promise<Inspection> {
    const document = remoteUrl(request.url, 'openapi').href;
    const given = request.server?.trim();
    const server = given ? remoteUrl(given, 'server').href : undefined;
    return this.#deps.sources.inspect({ kind: 'openapi', document, server });
  }

  /** Keeps `inspection` as a draft, with the credential it was listed with under a draft key. */
  async #keep(
    inspection: Inspection,
    credential?: { delivery: SecretDelivery; value: string },
  ): Promise<OpenDraft> {
    const source = inspection.source;
    if (source.kind === 'mcp-stdio') throw new HubError('internal', 'a remote draft became stdio');
    const now = this.#deps.clock.now();
    const id = randomId(this.#deps.random, 'draft', 16);
    const key = credential ? secretKey('draft', id, deliveryName(credential.delivery)) : undefined;
    const record: SourceDraftRecord = {
      id,
      source,
      manifest: inspection.manifest,
      notices: inspection.notices,
      credential: key && credential ? { key, delivery: credential.delivery } : null,
      asks: source.kind === 'openapi' ? inspection.credentials : [],
      createdAt: now,
      expiresAt: now + DRAFT_LIFETIME_MS,
    };
    const secrets = this.#deps.secrets;
    if (key && credential && secrets) await secrets.set(key, credential.value);
    try {
      this.#deps.store.addSourceDraft(record);
    } catch (error) {
      if (key) await secrets?.delete(key);
      throw error;
    }
    return { record, review: reviewOf(record) };
  }

  /** The draft `id` while it waits; undefined when there is none or it expired. */
  get(id: string): OpenDraft | undefined {
    const record = this.#deps.store.getSourceDraft(id);
    if (!record || record.expiresAt <= this.#deps.clock.now()) return undefined;
    return { record, review: reviewOf(record) };
  }

  /**
   * Stores the draft's source under `namespace` with its manifest as shown, each tool in
   * `effects` (keyed by the addresses shown) pinned to the contract in `shown`, and the
   * credential as the `default` connection: a server's as entered at `begin`, a document's as
   * `entered` on its review for its first key (`keyAsk`); then the draft is gone. A namespace that
   * is not one or is taken, or a key refused, is refused and the draft kept, to try again.
   */
  async confirm(
    id: string,
    namespace: string,
    effects: ReadonlyMap<string, PolicyEffect>,
    shown: ReadonlyMap<string, string>,
    entered: EnteredKey = {},
  ): Promise<Source> {
    const parsed = Namespace.safeParse(namespace);
    if (!parsed.success)
      throw new HubError(
        'invalid_input',
        `"${namespace}" cannot be a namespace: ${parsed.error.issues[0]?.message ?? 'not a namespace'}.`,
      );
    if (this.#deps.store.getSource(namespace))
      throw new HubError(
        'conflict',
        `This hub already has a source named "${namespace}"; pick another name.`,
      );
    const open = this.get(id);
    if (!open) throw expired();
    const { record } = open;
    const tools = new Map(record.manifest.tools.map((tool) => [tool.address, tool]));
    for (const [address] of effects) {
      const tool = tools.get(address);
      if (!tool) throw new HubError('invalid_input', `${address} is not one of the tools shown for review.`);
      if (shown.get(address) !== tool.contract)
        throw new HubError('conflict', `${address} is not the tool shown for review; nothing was stored.`);
    }
    const typed = this.#typed(record, entered);
    const secrets = this.#deps.secrets;
    const held = record.credential ? await heldSecrets(secrets).get(record.credential.key) : undefined;
    if (record.credential && held === undefined)
      throw new HubError(
        'not_found',
        'The credential entered for this server is gone from the secret store; nothing was stored. Add the server again.',
      );
    const credential =
      record.credential && held !== undefined ? { delivery: record.credential.delivery, value: held } : typed;
    if (!this.#deps.store.takeSourceDraft(id)) throw expired();
    const renamed = renamedDraft(record, namespace);
    try {
      this.#deps.sources.addSource(
        { ...renamed, review: [], credentials: [] },
        new Map(
          [...effects].map(([address, effect]) => [renamedAddress(address, record, namespace), effect]),
        ),
      );
    } catch (error) {
      this.#deps.store.addSourceDraft(record);
      throw error;
    }
    if (credential) {
      try {
        await this.#deps.sources.saveCredential(
          namespace,
          DRAFT_CONNECTION,
          credential.delivery,
          credential.value,
        );
      } catch (error) {
        // Whole or not at all: the source goes again and the draft comes back with its key, so
        // Confirm can be tried again and nothing is left without its credential.
        await this.#deps.sources.removeSource(namespace).catch(() => undefined);
        this.#deps.store.addSourceDraft(record);
        throw error;
      }
      if (record.credential) await secrets?.delete(record.credential.key);
    }
    return renamed.source;
  }

  /**
   * The key typed on a document's review, with how it reaches the API; undefined when none was
   * typed. Checked before anything is stored: a draft with no key to take, a key too short to
   * store, a user without a password (or the other way round), a host that keeps no secrets.
   */
  #typed(
    record: SourceDraftRecord,
    entered: EnteredKey,
  ): { delivery: SecretDelivery; value: string } | undefined {
    const value = entered.value?.trim() ?? '';
    const user = entered.user ?? '';
    const password = entered.password ?? '';
    if (value === '' && user === '' && password === '') return undefined;
    const ask = keyAsk(record.asks);
    if (record.source.kind !== 'openapi' || !ask)
      throw new HubError(
        'invalid_input',
        'The review asked for no key: this source takes none here; nothing was stored. Leave the key out.',
      );
    heldSecrets(this.#deps.secrets);
    if (ask.basic) {
      if (user === '' || password === '')
        throw new HubError(
          'invalid_input',
          `${ask.label} takes a user and a password; enter both, or neither to add the source without it. Nothing was stored.`,
        );
      return { delivery: ask.delivery, value: basicCredential(user, password) };
    }
    if (value.length < MIN_STORED_SECRET_LENGTH)
      throw new HubError(
        'invalid_input',
        `The key is shorter than ${MIN_STORED_SECRET_LENGTH} characters, short enough to be guessed; nothing was stored. Use the API’s full key.`,
      );
    return { delivery: ask.delivery, value };
  }

  /** Deletes the draft and its secret; false when there was none (confirmed, cancelled, swept). */
  async cancel(id: string): Promise<boolean> {
    const record = this.#deps.store.takeSourceDraft(id);
    if (!record) return false;
    await this.#forget(record);
    return true;
  }

  /** Deletes every expired draft with its secret; returns how many. */
  async sweep(): Promise<number> {
    const swept = this.#deps.store.sweepSourceDrafts(this.#deps.clock.now());
    for (const record of swept) await this.#forget(record);
    return swept.length;
  }

  async #forget(record: SourceDraftRecord): Promise<void> {
    if (record.credential) await this.#deps.secrets?.delete(record.credential.key);
  }

  /** How the credential reaches the server, checked before anything is sent anywhere. */
  #delivery(credential: ServerCredential) {
    heldSecrets(this.#deps.secrets);
    if (credential.value.trim() === '')
      throw new HubError('invalid_input', 'The credential is empty; leave it out, or paste the whole token.');
    if (credential.value.length < MIN_STORED_SECRET_LENGTH)
      throw new HubError(
        'invalid_input',
        `The credential is shorter than ${MIN_STORED_SECRET_LENGTH} characters, short enough to be guessed; use the service’s full token or key.`,
      );
    if (!HEADER_NAME.test(credential.header))
      throw new HubError(
        'invalid_input',
        'The header name may hold only letters, digits and -, like Authorization or X-Api-Key.',
      );
    if (!SCHEME.test(credential.scheme))
      throw new HubError(
        'invalid_input',
        'The scheme is one word, like Bearer, or empty to send the credential bare.',
      );
    return { kind: 'header' as const, name: credential.header, scheme: credential.scheme };
  }
}

const expired = () =>
  new HubError(
    'not_found',
    'This addition is no longer waiting: it was confirmed, cancelled, or left longer than 10 minutes; nothing was stored. Add the server again.',
  );

const reviewOf = (record: SourceDraftRecord): ReviewItem[] =>
  record.manifest.tools.map((tool) => reviewItem(tool));

/** `address` of the draft's namespace, under `namespace` (a contract does not name its namespace). */
const renamedAddress = (address: string, record: SourceDraftRecord, namespace: string) =>
  `${namespace}${address.slice(record.source.namespace.length)}`;

function renamedDraft(record: SourceDraftRecord, namespace: string) {
  return {
    source: { ...record.source, namespace },
    manifest: {
      ...record.manifest,
      namespace,
      tools: record.manifest.tools.map((tool) => ({
        ...tool,
        address: renamedAddress(tool.address, record, namespace),
      })),
    },
    notices: record.notices,
  };
}

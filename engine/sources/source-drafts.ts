/**
 * class SourceDrafts: adding a remote MCP server in two steps, for a host where a person adds
 * sources from the dashboard (no CLI, no terminal prompt). `begin` inspects the server (with the
 * credential the person entered delivered, so a server that requires one can be listed) and
 * keeps what it found as a source draft for `DRAFT_LIFETIME_MS`: the record (what was shown) in
 * the store, the credential's value in the secret store under a draft key. The page between
 * carries only the draft's id. `confirm` stores exactly what was shown, under the namespace the
 * person chose, and moves the credential to the source's `default` connection; `cancel` and
 * expiry delete the draft and its secret.
 *
 * A confirmation covers what the person saw, never the server's answer of the moment: the tools
 * and contracts come from the draft, and each decision must carry the contract it was shown with.
 */
import { Namespace } from '../contracts/names.ts';
import type { PolicyEffect } from '../contracts/policy.ts';
import type { SourceDraftRecord } from '../contracts/source-drafts.ts';
import type { Source } from '../contracts/sources.ts';
import { HubError } from '../errors.ts';
import { randomId } from '../hex.ts';
import type { Clock, HubStore, Random } from '../ports.ts';
import { type SecretStore, secretKey } from '../secrets/secret-store.ts';
import { deliver, NO_CREDENTIALS } from './connector.ts';
import { type ReviewItem, reviewItem } from './review.ts';
import { MIN_STORED_SECRET_LENGTH, type Sources } from './sources.ts';
import { heldSecrets } from './upstream.ts';

/** How long a draft waits for the person's Confirm. */
export const DRAFT_LIFETIME_MS = 10 * 60_000;

/** The connection a draft's credential becomes. */
export const DRAFT_CONNECTION = 'default';

/** What a person entered to add a remote server. */
export interface NewRemoteSource {
  url: string;
  /** A secret for the `default` connection, sent as `<header>: <scheme> <value>`. */
  credential?: { value: string; header: string; scheme: string } | undefined;
}

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

/** `url` as an http(s) URL, or an invalid_input that says what to give instead. */
export function remoteUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new HubError('invalid_input', 'That is not a URL; give the server’s full address, https://…');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new HubError(
      'invalid_input',
      `A ${parsed.protocol} address is not a Streamable HTTP server; give its http:// or https:// address.`,
    );
  return parsed;
}

export class SourceDrafts {
  readonly #deps: SourceDraftsDeps;

  constructor(deps: SourceDraftsDeps) {
    this.#deps = deps;
  }

  /**
   * Inspects the server at `request.url` and keeps what was found as a draft. Refused before
   * anything is reached: a URL that is not http(s), a credential too short to store, a header
   * that is not one. A server that cannot be reached or listed throws (scrubbed, by Sources).
   */
  async begin(request: NewRemoteSource): Promise<OpenDraft> {
    await this.sweep();
    const url = remoteUrl(request.url).href;
    const credential = request.credential;
    const delivery = credential && this.#delivery(credential);
    const credentials =
      credential && delivery
        ? deliver(DRAFT_CONNECTION, [{ delivery, value: credential.value }])
        : NO_CREDENTIALS;
    const inspection = await this.#deps.sources.inspect({ kind: 'mcp-http', url }, undefined, credentials);
    if (inspection.source.kind !== 'mcp-http') throw new HubError('internal', 'an HTTP draft became stdio');
    const now = this.#deps.clock.now();
    const id = randomId(this.#deps.random, 'draft', 16);
    const key = delivery ? secretKey('draft', id, delivery.name) : undefined;
    const record: SourceDraftRecord = {
      id,
      source: inspection.source,
      manifest: inspection.manifest,
      notices: inspection.notices,
      credential: key && delivery ? { key, delivery } : null,
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
   * credential as the `default` connection; then the draft is gone. A namespace that is not one
   * or is taken is refused and the draft kept, to choose another.
   */
  async confirm(
    id: string,
    namespace: string,
    effects: ReadonlyMap<string, PolicyEffect>,
    shown: ReadonlyMap<string, string>,
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
    const secrets = this.#deps.secrets;
    const value = record.credential ? await heldSecrets(secrets).get(record.credential.key) : undefined;
    if (record.credential && value === undefined)
      throw new HubError(
        'not_found',
        'The credential entered for this server is gone from the secret store; nothing was stored. Add the server again.',
      );
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
    if (record.credential && value !== undefined) {
      try {
        await this.#deps.sources.saveCredential(
          namespace,
          DRAFT_CONNECTION,
          record.credential.delivery,
          value,
        );
      } catch (error) {
        // Whole or not at all: the source goes again and the draft comes back with its key, so
        // Confirm can be tried again and nothing is left without its credential.
        await this.#deps.sources.removeSource(namespace).catch(() => undefined);
        this.#deps.store.addSourceDraft(record);
        throw error;
      }
      await secrets?.delete(record.credential.key);
    }
    return renamed.source;
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
  #delivery(credential: NonNullable<NewRemoteSource['credential']>) {
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

/**
 * class Sources: what a person administers. Inspecting a server before it is added, storing a
 * source whole (source, manifest, policy rules pinned to each tool's contract, reviews) or not at
 * all, reviewing new and changed tools, refreshing manifests (also when a server says its list
 * changed), removing a source with everything hanging off it, and storing a secret a person
 * entered. A source at a private address is refused when it is added where the connector refuses
 * private places (the hosted hub), so a person learns it then. Everything a source declares is
 * scrubbed of every secret the hub holds before it is stored or shown. The hub's calls to its
 * sources are `Upstream`'s.
 */

import {
  type Credentials,
  type ListedTools,
  NO_CREDENTIALS,
  type SourceConnector,
} from '../connectors/connector.ts';
import type { CredentialAsk } from '../connectors/openapi/security.ts';
import type { Connection, SecretRef } from '../contracts/connections.ts';
import type { PolicyEffect } from '../contracts/policy.ts';
import type { SourceChange } from '../contracts/source-history.ts';
import type { Manifest, Source, ToolReview } from '../contracts/sources.ts';
import { HubError, isHubError } from '../errors.ts';
import { randomId } from '../hex.ts';
import { buildManifestWithNotices } from '../manifest.ts';
import type { Clock, HubStore, Random } from '../ports.ts';
import type { HubSecrets } from '../secrets/hub-secrets.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import type { HostWording } from '../wording.ts';
import { draftUrl, type SourceDraft, sourceFromDraft } from './draft-source.ts';
import { diffManifests, type ManifestDiff } from './manifest-diff.ts';
import { proposeNamespace } from './namespace.ts';
import { type ReviewItem, reviewItem } from './review.ts';
import { saveCredential } from './save-credential.ts';
import { scrubListed } from './scrub-listed.ts';
import {
  removalOf,
  removedChange,
  resetToolRule,
  sameAsShown,
  type ToolRuleChoice,
} from './source-changes.ts';
import { storedManifest, storedSource } from './stored.ts';
import type { Upstream } from './upstream.ts';

export interface SourcesDeps {
  store: HubStore;
  connector: SourceConnector;
  /** Absent where the host keeps no secrets (then connections cannot be used). */
  secrets?: SecretStore | undefined;
  clock: Clock;
  random: Random;
  /** Every secret the hub holds, for scrubbing (one per engine). */
  hubSecrets: HubSecrets;
  /** Resolves a connection's secrets when a refresh lists tools on it. */
  upstream: Upstream;
  /** How a person acts, in the host's words (listing sources, refreshing one). */
  wording: HostWording;
}

export type { SourceDraft };

export interface Inspection {
  source: Source;
  manifest: Manifest;
  review: ReviewItem[];
  /** What the hub left out or cut of what the server declared, for the person. */
  notices: string[];
  /** The credentials an OpenAPI document's operations use, for the person to enter (empty for MCP). */
  credentials: CredentialAsk[];
}

/** What a refresh found: the diff against the last read, and what was left out or cut. */
export type Refreshed = ManifestDiff & { notices: string[] };

/** The server of an OpenAPI source whose document is not read yet (never reached: listing reads the document only). */
const UNREAD_SERVER = 'https://server-not-read-yet.invalid/';

export class Sources {
  readonly #deps: SourcesDeps;
  readonly #secrets: HubSecrets;

  constructor(deps: SourcesDeps) {
    this.#deps = deps;
    this.#secrets = deps.hubSecrets;
  }

  get #store(): HubStore {
    return this.#deps.store;
  }

  /**
   * Connects to a server not yet added, lists its tools and proposes a namespace and policies.
   * `credentials` are what it needs to answer (an import's tokens, not yet stored): used for
   * this listing only, and scrubbed from what it returns.
   */
  async inspect(
    draft: SourceDraft,
    namespace?: string,
    credentials: Credentials = NO_CREDENTIALS,
  ): Promise<Inspection> {
    const now = this.#deps.clock.now();
    this.#unclaimed(namespace);
    const hints = draft.kind === 'mcp-stdio' ? { command: draft.command } : { url: draftUrl(draft) };
    const taken = new Set(this.#store.listSources().map((s) => s.namespace));
    // An OpenAPI document names its server only once read: until then a placeholder stands in.
    const provisional = this.#source(draft, namespace ?? proposeNamespace(hints, taken), now, UNREAD_SERVER);
    const { listed, notices } = await this.#listTools(provisional, credentials);
    const chosen =
      namespace ??
      proposeNamespace(
        {
          serverName: listed.server?.name,
          url: draft.kind === 'mcp-stdio' ? undefined : draftUrl(draft),
          command: provisional.kind === 'mcp-stdio' ? provisional.command : undefined,
        },
        taken,
      );
    const source = this.#source(draft, chosen, now, listed.serverUrl);
    const built = await buildManifestWithNotices({ namespace: chosen, fetchedAt: now, ...listed });
    const manifest = built.manifest;
    notices.push(...built.notices);
    const review = manifest.tools.map((tool) => reviewItem(tool));
    return { source, manifest, review, notices, credentials: listed.credentials ?? [] };
  }

  /**
   * Stores an inspected source whole: the source, its manifest, one policy rule per tool
   * pinned to its contract with the effect the person chose, and the reviews. Nothing is
   * stored if any part fails.
   */
  addSource(inspection: Inspection, effects: ReadonlyMap<string, PolicyEffect>): void {
    const now = this.#deps.clock.now();
    this.#store.atomically(() => {
      this.#store.addSource(inspection.source);
      this.#store.putManifest(inspection.manifest);
      this.#acceptReview(inspection.source.namespace, inspection.manifest, effects, now);
    });
  }

  /**
   * Stores a source whose tools could not be listed (an imported server that failed to start),
   * with no tool list: its tools are reviewed once `refresh` reads them, and until then it has
   * none to call. The person fixes it and refreshes, or removes it.
   */
  addUnlisted(draft: SourceDraft, namespace: string): Source {
    this.#unclaimed(namespace);
    const source = this.#source(draft, namespace, this.#deps.clock.now());
    this.#store.addSource(source);
    return source;
  }

  /** A conflict when `namespace` is already a source's. */
  #unclaimed(namespace: string | undefined): void {
    if (namespace !== undefined && this.#store.getSource(namespace)) {
      throw new HubError(
        'conflict',
        `a source named "${namespace}" already exists; pick another ${this.#deps.wording.otherNamespace}`,
      );
    }
  }

  /** New and changed tools of a namespace (or of every source) that wait for a person. */
  pendingReview(namespace?: string): ReviewItem[] {
    const manifests = namespace
      ? [storedManifest(this.#store, namespace, this.#deps.wording)]
      : this.#store.listManifests();
    return manifests.flatMap((manifest) => {
      const reviews = new Map(this.#store.listReviews(manifest.namespace).map((r) => [r.address, r]));
      return manifest.tools
        .filter((tool) => reviews.get(tool.address)?.contract !== tool.contract)
        .map((tool) => reviewItem(tool, reviews.get(tool.address)?.tool));
    });
  }

  /**
   * Records the person's choices for reviewed tools: rules pinned to the current contracts.
   * `shown`, when given, holds the contract each tool was shown to the person with: if any tool's
   * contract is another by now, nothing is recorded (conflict), since a decision covers exactly
   * what the person was shown.
   */
  acceptReview(
    namespace: string,
    effects: ReadonlyMap<string, PolicyEffect>,
    shown?: ReadonlyMap<string, string>,
    who?: string,
  ): void {
    this.#store.atomically(() => {
      const manifest = storedManifest(this.#store, namespace, this.#deps.wording);
      if (shown) sameAsShown(manifest, effects, shown);
      this.#acceptReview(namespace, manifest, effects, this.#deps.clock.now());
      if (who !== undefined) this.#record(namespace, who, { kind: 'reviewed', tools: effects.size });
    });
  }

  /**
   * Sets one tool's rule, as a review of that tool alone would (an effect pinned to its contract),
   * or back to the default (source-changes.ts), only while its contract is still `shown` (else
   * conflict, nothing changed); recorded in the source's history as `who`'s. The next call of the
   * tool is decided by it.
   */
  setRule(namespace: string, address: string, choice: ToolRuleChoice, shown: string, who: string): void {
    this.#store.atomically(() => {
      const manifest = storedManifest(this.#store, namespace, this.#deps.wording);
      const now = this.#deps.clock.now();
      if (choice === 'default') resetToolRule(this.#store, manifest, address, shown, now);
      else {
        const effects = new Map([[address, choice]]);
        sameAsShown(manifest, effects, new Map([[address, shown]]));
        this.#acceptReview(namespace, manifest, effects, now);
      }
      this.#record(namespace, who, { kind: 'rule', address, effect: choice, contract: shown });
    });
  }

  #record(namespace: string, who: string, change: SourceChange): void {
    this.#store.addSourceEvent({
      id: this.#id('change'),
      namespace,
      who,
      change,
      at: this.#deps.clock.now(),
    });
  }

  /**
   * Reads a source's tools again and reports what is new, changed and gone since the last read.
   * `keep`, when given, decides whether the new read replaces the stored one (contract-recheck.ts).
   */
  async refresh(
    namespace: string,
    keep?: (stored: Manifest | undefined, read: Manifest) => boolean,
  ): Promise<Refreshed> {
    const source = storedSource(this.#store, namespace, this.#deps.wording);
    const { listed, notices } = await this.#listSigned(source);
    const before = this.#store.getManifest(namespace);
    const built = await buildManifestWithNotices({ namespace, fetchedAt: this.#deps.clock.now(), ...listed });
    const manifest = built.manifest;
    if (keep && !keep(before, manifest)) return { ...diffManifests(before, before ?? manifest), notices: [] };
    this.#store.putManifest(manifest);
    return { ...diffManifests(before, manifest), notices: [...notices, ...built.notices] };
  }

  /**
   * A stored source's tools, on its default connection. A source that answers 401 to an OAuth
   * access token the clock calls good (revoked early, or the server restarted) gets one refresh
   * and one more listing; listing runs nothing, so it may be asked twice (a tool call never is).
   */
  async #listSigned(source: Source): Promise<{ listed: ListedTools; notices: string[] }> {
    const upstream = this.#deps.upstream;
    const credentials = await upstream.credentials(source.namespace);
    try {
      return await this.#listTools(source, credentials);
    } catch (error) {
      const signsIn = this.#store
        .listConnections(source.namespace)
        .some((c) => c.isDefault && c.secrets.some((ref) => ref.delivery.kind === 'oauth'));
      if (!signsIn || !isHubError(error, 'unauthorized')) throw error;
      return this.#listTools(source, await upstream.credentials(source.namespace, undefined, true));
    }
  }

  /**
   * Refreshes a source whenever its server says its tool list changed
   * (notifications/tools/list_changed); `onRefreshed` hears the diff or the failure.
   */
  followToolChanges(onRefreshed?: (namespace: string, result: Refreshed | Error) => void): void {
    this.#deps.connector.onToolsChanged((namespace) => {
      this.refresh(namespace).then(
        (diff) => onRefreshed?.(namespace, diff),
        (error: unknown) =>
          onRefreshed?.(namespace, error instanceof Error ? error : new Error(String(error))),
      );
    });
  }

  /**
   * Removes a source with everything that hangs off it, its secrets included. With `who`, the
   * removal is recorded in the source's history (which outlives it) as theirs.
   */
  async removeSource(namespace: string, who?: string): Promise<void> {
    const connections = this.#store.listConnections(
      storedSource(this.#store, namespace, this.#deps.wording).namespace,
    );
    this.#store.atomically(() => {
      const change = who === undefined ? undefined : removedChange(removalOf(this.#store, namespace));
      this.#store.removeSource(namespace);
      if (who !== undefined && change) this.#record(namespace, who, change);
    });
    for (const connection of connections) {
      for (const ref of connection.secrets) await this.#deps.secrets?.delete(ref.key);
    }
  }

  /**
   * Stores a secret a person entered and the connection that points at it (save-credential.ts).
   * Only a person's own input reaches this: the CLI's `auth` (a masked prompt) and `import` (a
   * harness's token, with the person's consent), and the dashboard's Add a source on Confirm
   * (source-drafts.ts, the masked field of a dashboard session); no MCP-reachable path does.
   */
  saveCredential(
    namespace: string,
    connectionName: string,
    delivery: SecretRef['delivery'],
    value: string,
  ): Promise<Connection> {
    return saveCredential(this.#deps, namespace, connectionName, delivery, value);
  }

  async #listTools(
    source: Source,
    credentials: Credentials,
  ): Promise<{ listed: ListedTools; notices: string[] }> {
    await this.#secrets.refresh();
    this.#secrets.learn(credentials.secrets);
    let listed: ListedTools;
    try {
      listed = await this.#deps.connector.listTools(source, credentials);
    } catch (error) {
      throw this.#scrubbedError(error);
    }
    return scrubListed(listed, this.#secrets.scrubber);
  }

  /**
   * `error` as a HubError whose message and detail hold no secret the hub knows. The original is
   * not kept as its cause: whatever prints causes would print it unscrubbed.
   */
  #scrubbedError(error: unknown): HubError {
    const { text } = this.#secrets.scrubber;
    if (error instanceof HubError) {
      const detail = error.detail === undefined ? {} : { detail: text(error.detail) };
      return new HubError(error.code, text(error.message), detail);
    }
    return new HubError('unavailable', text(error instanceof Error ? error.message : String(error)));
  }

  #acceptReview(
    namespace: string,
    manifest: Manifest,
    effects: ReadonlyMap<string, PolicyEffect>,
    now: number,
  ): void {
    const current = new Map(manifest.tools.map((tool) => [tool.address, tool]));
    for (const [address, effect] of effects) {
      const tool = current.get(address);
      if (!tool) throw new HubError('not_found', `no tool ${address} in "${namespace}" to review`);
      // A review is the person's latest word on the tool: every rule pinned to a contract (an
      // earlier review's, or an `always` on any connection, or none) goes, so none comes back to
      // life should the tool return to that contract. Rules pinned to no contract are the
      // person's own policy and stay.
      for (const old of this.#store.listPolicyRules(address)) {
        if (old.target.kind === 'tool' && old.contract) this.#store.removePolicyRule(old.id);
      }
      this.#store.addPolicyRule({
        id: this.#id('rule'),
        target: { kind: 'tool', address },
        effect,
        contract: tool.contract,
        createdAt: now,
      });
      const review: ToolReview = { address, namespace, contract: tool.contract, tool, reviewedAt: now };
      this.#store.putReview(review);
    }
  }

  #source(draft: SourceDraft, namespace: string, now: number, serverUrl?: string): Source {
    return sourceFromDraft(
      draft,
      namespace,
      now,
      this.#deps.connector.privateAddresses,
      this.#deps.wording.apiServer,
      serverUrl,
    );
  }

  #id(prefix: string): string {
    return randomId(this.#deps.random, prefix, 12);
  }
}

/**
 * The two read-only answers of the hub, `search` and `describe`, over what the store holds now.
 * The search index is built from the stored manifests on first use and kept current by
 * comparing each source's manifest time with what it indexed, so a source added, refreshed or
 * removed by another process (a CLI command beside a running `serve`) is picked up on the next
 * query with one namespace re-indexed, never a full rebuild.
 *
 * `[asks]` and hidden tools come from the same policy decision a call would get, on the
 * source's default connection.
 *
 * Each Lookup answers for one profile (engine/profiles/): only the tools and skills it shows are
 * indexed, described and listed, so a hidden one reads exactly like one that does not exist. The
 * profile is read again on every answer; an edit (by any process) rebuilds the index.
 *
 * Skills join both: a search without `namespace` ranks them with the tools, by the same score
 * (the index holds them as documents of their own kind); `describe("skill:<name>")` answers a
 * skill's SKILL.md and its files (skills/skill-describe.ts), after any tools asked for in the same
 * call, in the same budget.
 */

import { namespaceOf } from './address.ts';
import type { PolicyEffect } from './contracts/policy.ts';
import { IMPLICIT_DEFAULT, type ProfileMode } from './contracts/profiles.ts';
import type { Skill } from './contracts/skills.ts';
import type { ManifestTool } from './contracts/sources.ts';
import { HubError } from './errors.ts';
import { policyEffect } from './policy/evaluate.ts';
import type { HubStore, StoredSearchDocuments } from './ports.ts';
import { ProfileView } from './profiles/profile-view.ts';
import { firstSentence, parseSearchInput, SearchIndex, search, type ToolDocument } from './search/index.ts';
import { documentsToStore, storedDocuments, storedFormat } from './search/stored-documents.ts';
import { describeSkills, isSkillTarget, resolveSkills } from './skills/skill-describe.ts';
import { HUB_DECLARATIONS, isHubTarget } from './typegen/hub-declarations.ts';
import {
  countTokens,
  DEFAULT_BUDGET_TOKENS,
  describeTargets,
  MAX_TARGETS,
  signatureLine,
} from './typegen/index.ts';
import type { HostWording } from './wording.ts';

export class Lookup {
  readonly #store: HubStore;
  readonly #wording: HostWording;
  readonly #viewOf: () => ProfileView;
  #index: SearchIndex | undefined;
  /** The profile the index was built for (name and last edit): another one rebuilds it. */
  #indexedFor = '';
  readonly #indexed = new Map<string, number>();
  /** The skills the index holds (names and descriptions), to put them in again when they change. */
  #skillsKey = '';
  /** Each source's first sentence of instructions, with the manifest time it was read at. */
  readonly #abouts = new Map<string, { fetchedAt: number | undefined; about: string }>();

  /** `view` reads the profile this Lookup answers for (every answer asks it); absent: everything. */
  constructor(store: HubStore, wording: HostWording, view?: () => ProfileView) {
    this.#store = store;
    this.#wording = wording;
    this.#viewOf = view ?? (() => EVERYTHING);
  }

  #skills(view: ProfileView = this.#viewOf()) {
    return this.#store.listSkills().filter((skill) => view.skill(skill.name));
  }

  #sources(view: ProfileView): string[] {
    return this.#store
      .listSources()
      .map((source) => source.namespace)
      .filter((namespace) => view.namespace(namespace));
  }

  /**
   * Builds the search index now (from the documents the store keeps), so the first `search` does
   * not wait for it: a host calls it when it has nothing else to do.
   */
  warm(): void {
    this.#current();
  }

  /**
   * The plain-text answer of `search` (spec: The MCP surface, search): tools and skills ranked
   * together by score; an empty query lists the namespaces, then counts the skills.
   */
  search(input: unknown): string {
    const { query, namespace } = parseSearchInput(input);
    // One read of the profile for the whole answer: skills and tools as one edit left them.
    const view = this.#viewOf();
    const skills = this.#skills(view);
    const index = this.#current(view);
    const key = skillsKey(skills);
    if (this.#skillsKey !== key) {
      index.upsertSkills(skills);
      this.#skillsKey = key;
    }
    const hasTools = index.namespaces().length > 0 || this.#sources(view).length > 0;
    if (query.trim() !== '' || namespace !== undefined || skills.length === 0) {
      return this.#searchTools(index, view, input);
    }
    const line = `skills  ${skills.length} ${skills.length === 1 ? 'skill' : 'skills'}: search by what they are for, read one with describe("skill:<name>")`;
    return hasTools ? `${this.#searchTools(index, view, input)}\n${line}` : line;
  }

  #searchTools(index: SearchIndex, view: ProfileView, input: unknown): string {
    const rules = this.#store.listPolicyRules();
    const reviewed = this.#store.listReviewedContracts();
    // Each namespace's default connection, read once per search (every match's effect needs it).
    const defaults = new Map<string, string | null>();
    const defaultConnection = (namespace: string): string | null => {
      let name = defaults.get(namespace);
      if (name === undefined) {
        name = this.#store.listConnections(namespace).find((c) => c.isDefault)?.name ?? null;
        defaults.set(namespace, name);
      }
      return name;
    };
    return search(index, input, {
      sources: () => this.#sources(view),
      // Every document the Lookup indexes carries its signature; one that does not is typed now.
      signatureOf: (doc: ToolDocument) => doc.signature ?? this.#signatureNow(doc.address, view),
      effectOf: (doc: ToolDocument): PolicyEffect => {
        const call = { address: doc.address, connection: defaultConnection(doc.namespace) };
        return policyEffect(call, doc, rules, reviewed.get(doc.address));
      },
      connectionsOf: (namespace: string) => this.#store.listConnections(namespace),
      aboutOf: (namespace: string) => this.#about(namespace, view),
      wording: this.#wording,
    });
  }

  /**
   * The first sentence of a source's instructions, read from its manifest once per manifest (an
   * answer that finds nothing close shows it); none for a source the profile shows in part, whose
   * instructions may speak of tools it hides.
   */
  #about(namespace: string, view: ProfileView): string | undefined {
    if (!view.whole(namespace)) return undefined;
    const fetchedAt = this.#indexed.get(namespace);
    const known = this.#abouts.get(namespace);
    if (known !== undefined && known.fetchedAt === fetchedAt) return known.about;
    const about = firstSentence(this.#store.getManifest(namespace)?.instructions ?? '');
    this.#abouts.set(namespace, { fetchedAt, about });
    return about;
  }

  #signatureNow(address: string, view: ProfileView): string {
    const stored = this.#store.getManifest(namespaceOf(address));
    const manifest = stored && view.manifest(stored);
    const tool = manifest?.tools.find((t) => t.address === address);
    return tool ? signatureLine(tool, manifest) : `${address}(input: unknown): Promise<unknown>`;
  }

  /**
   * The declarations `describe` answers, within the token budget; `hub` (or `hub.read`) adds the
   * guest's own helpers (hub-declarations.ts).
   */
  describe(targets: readonly string[], budgetTokens?: number): string {
    const rest = targets.filter((target) => !isHubTarget(target));
    // describe("hub") declares the guest's own helpers (hub.read and its handles), before the rest.
    const hub = rest.length < targets.length ? HUB_DECLARATIONS : '';
    if (rest.length === 0 && targets.length > 0) return hub;
    // The hub's helpers are paid for out of the same budget.
    const left = hub === '' ? budgetTokens : (budgetTokens ?? DEFAULT_BUDGET_TOKENS) - hubTokens();
    return hub + this.#describeToolsAndSkills(rest, left === undefined ? undefined : Math.max(1, left));
  }

  #describeToolsAndSkills(targets: readonly string[], budgetTokens: number | undefined): string {
    const skillTargets = targets.filter(isSkillTarget);
    if (skillTargets.length === 0) {
      return describeTargets(this.#manifests(), targets, budgetTokens ? { budgetTokens } : {}).text;
    }
    if (targets.length > MAX_TARGETS) {
      throw new HubError(
        'invalid_input',
        `describe takes 1 to ${MAX_TARGETS} targets; got ${targets.length}. Describe more in several calls.`,
      );
    }
    const skills = resolveSkills(this.#skills(), skillTargets);
    const budget = budgetTokens ?? DEFAULT_BUDGET_TOKENS;
    const toolTargets = targets.filter((target) => !isSkillTarget(target));
    // Tools asked for with skills take their share first (half the budget at most), then the skills the rest.
    const tools =
      toolTargets.length === 0
        ? ''
        : describeTargets(this.#manifests(), toolTargets, {
            budgetTokens: Math.max(1, Math.floor(budget / 2)),
          }).text;
    const left = budget - countTokens(tools) - (tools === '' ? 0 : 1);
    const text = describeSkills(skills, Math.max(0, left));
    return tools === '' ? text : `${tools}\n${text}`;
  }

  /** The skills the profile shows, as the hub keeps them (served over MCP: skill-resources.ts). */
  skills(): Skill[] {
    return this.#skills();
  }

  /** One file of a skill the profile shows; undefined for any other (a hidden skill's too). */
  skillFile(name: string, path: string): Uint8Array | undefined {
    if (!this.#viewOf().skill(name)) return undefined;
    return this.#store.getSkillContents(name)?.find((file) => file.path === path)?.data;
  }

  /** How the profile serves its tools: the three tools of code mode, or each as its own (direct). */
  mode(): ProfileMode {
    return this.#viewOf().profile.mode;
  }

  /**
   * The tools the profile shows, as stored (scrubbed): what direct mode serves. An OpenAPI
   * operation's tool goes without its output schema: that schema is read from the first 2xx
   * response, and another (a 204, a list) would be a completed call a client refuses to accept.
   */
  tools(): ManifestTool[] {
    const openapi = new Set(
      this.#store
        .listSources()
        .filter((source) => source.kind === 'openapi')
        .map((source) => source.namespace),
    );
    return this.#manifests().flatMap((manifest) =>
      openapi.has(manifest.namespace)
        ? manifest.tools.map(({ outputSchema: _output, ...tool }) => tool)
        : manifest.tools,
    );
  }

  /**
   * Changes whenever what the profile shows may have: the profile edited, a source's manifest
   * added, refreshed or removed (by any process; the store is shared).
   */
  stamp(): string {
    const view = this.#viewOf();
    const versions = this.#store
      .listManifestVersions()
      .map(({ namespace, fetchedAt }) => `${namespace}@${fetchedAt}`);
    return [`${view.profile.name}@${view.profile.updatedAt}`, ...versions].join(' ');
  }

  /** The stored manifests, with only the tools the profile shows. */
  #manifests() {
    return this.#viewOf().manifests(this.#store.listManifests());
  }

  /**
   * The index, brought up to date with the store's manifests and the profile. A namespace the
   * profile shows whole is indexed from the documents the store keeps for its manifest, made and
   * kept first when there are none of this code's (stored-documents.ts); one it shows in part is
   * made from its manifest each time.
   */
  #current(view: ProfileView = this.#viewOf()): SearchIndex {
    const versions = this.#store.listManifestVersions().filter(({ namespace }) => view.namespace(namespace));
    const profileKey = `${view.profile.name}@${view.profile.updatedAt}`;
    if (this.#indexedFor !== profileKey) {
      this.#index = undefined;
      this.#indexed.clear();
      this.#skillsKey = '';
      this.#indexedFor = profileKey;
    }
    if (!this.#index) {
      const index = SearchIndex.build([]);
      const stored = new Map(this.#store.listSearchDocuments().map((row) => [row.namespace, row]));
      for (const { namespace, fetchedAt } of versions) {
        this.#indexNamespace(index, view, namespace, fetchedAt, stored.get(namespace));
        this.#indexed.set(namespace, fetchedAt);
      }
      this.#index = index;
      this.#skillsKey = '';
      return index;
    }
    const live = new Set<string>();
    for (const { namespace, fetchedAt } of versions) {
      live.add(namespace);
      if (this.#indexed.get(namespace) !== fetchedAt) {
        this.#indexNamespace(this.#index, view, namespace, fetchedAt, undefined);
        this.#indexed.set(namespace, fetchedAt);
      }
    }
    for (const namespace of [...this.#indexed.keys()]) {
      if (!live.has(namespace)) {
        this.#index.remove(namespace);
        this.#indexed.delete(namespace);
      }
    }
    return this.#index;
  }

  /** Puts one namespace's documents in `index`: the stored ones when they are current, else made (and kept). */
  #indexNamespace(
    index: SearchIndex,
    view: ProfileView,
    namespace: string,
    fetchedAt: number,
    row: StoredSearchDocuments | undefined,
  ): void {
    const whole = view.whole(namespace);
    const format = storedFormat(signatureLine);
    const kept = whole ? storedDocuments(row, fetchedAt, format) : undefined;
    if (kept) {
      index.upsertDocuments(namespace, kept);
      return;
    }
    const stored = this.#store.getManifest(namespace);
    const manifest = stored && view.manifest(stored);
    if (!manifest) {
      index.remove(namespace);
      return;
    }
    const { row: made, documents } = documentsToStore(manifest, format, signatureLine);
    index.upsertDocuments(namespace, documents);
    if (!whole) return;
    try {
      this.#store.putSearchDocuments(made);
    } catch {
      // A cache: a store that cannot take it now (busy, read-only) makes it again next time.
    }
  }
}

/** What a hub's skills are, as the index ranks them: a change in any name or description re-indexes them. */
function skillsKey(skills: readonly { name: string; description: string }[]): string {
  return JSON.stringify(skills.map(({ name, description }) => [name, description]));
}

/** The view of a Lookup made without a profile: the implicit default, everything. */
const EVERYTHING = new ProfileView(IMPLICIT_DEFAULT);

let hubDeclarationTokens: number | undefined;
/** The o200k tokens of the hub's helpers' declarations, counted once. */
function hubTokens(): number {
  hubDeclarationTokens ??= countTokens(HUB_DECLARATIONS);
  return hubDeclarationTokens;
}

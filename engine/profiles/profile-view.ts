/**
 * What one profile lets be seen: the visibility predicate every part of the engine asks (search
 * and describe, the namespaces and addresses a run's sandbox is given, the skill resources, the
 * direct tools). One place decides, so a tool hidden by a profile is missing from all of them
 * alike, exactly as if it did not exist. It grants nothing: a visible tool still passes policy.
 */
import { namespaceOf } from '../address.ts';
import type { Profile } from '../contracts/profiles.ts';
import type { Manifest } from '../contracts/sources.ts';

export class ProfileView {
  readonly profile: Profile;
  readonly #namespaces: ReadonlySet<string> | undefined;
  readonly #tools: ReadonlySet<string> | undefined;
  readonly #skills: ReadonlySet<string> | undefined;

  constructor(profile: Profile) {
    this.profile = profile;
    this.#namespaces = profile.namespaces && new Set(profile.namespaces);
    this.#tools = profile.tools && new Set(profile.tools);
    this.#skills = profile.skills && new Set(profile.skills);
  }

  /** True when the tool at `address` is visible: its namespace is, and the tool list (if any) names it. */
  tool(address: string): boolean {
    const namespace = namespaceOf(address);
    if (this.#namespaces && !this.#namespaces.has(namespace)) return false;
    return !this.#tools || this.#tools.has(address);
  }

  /** True when the skill called `name` is visible. */
  skill(name: string): boolean {
    return !this.#skills || this.#skills.has(name);
  }

  /** The manifest with only its visible tools; undefined when none of them is. */
  manifest(manifest: Manifest): Manifest | undefined {
    if (this.#namespaces && !this.#namespaces.has(manifest.namespace)) return undefined;
    if (!this.#tools) return manifest;
    const tools = manifest.tools.filter((tool) => this.tool(tool.address));
    return tools.length === 0 ? undefined : { ...manifest, tools };
  }

  /** The manifests with only their visible tools, dropping those left with none. */
  manifests(manifests: readonly Manifest[]): Manifest[] {
    return manifests.flatMap((manifest) => this.manifest(manifest) ?? []);
  }

  /** True when every tool of the namespace is visible (no tool list narrows it). */
  whole(namespace: string): boolean {
    return !this.#tools && (!this.#namespaces || this.#namespaces.has(namespace));
  }

  /** True when the source's namespace shows at least its header (every namespace, or one listed). */
  namespace(namespace: string): boolean {
    if (this.#namespaces && !this.#namespaces.has(namespace)) return false;
    return !this.#tools || [...this.#tools].some((address) => namespaceOf(address) === namespace);
  }
}

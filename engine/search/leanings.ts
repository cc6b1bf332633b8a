/**
 * The index's leanings (issue #35): what a query's words say about which sources it wants, kept
 * per namespace so a query works them out before any document is scored, and the scoring pass
 * pays one multiply per match.
 *
 * - A source named in the query (a term of its namespace or server name) leans by `namedBoost`.
 * - A source of a kind the query asks for (service-kinds.ts) leans by `kindBoost` times the share
 *   it asked with.
 * - A question leans toward tools that only read (reads.ts) by `readBoost`.
 *
 * Each namespace gets a group number the first time it is seen (never reused, so a slot's group
 * stays valid); per slot, its group and whether it reads sit in typed arrays.
 */
import type { Ranking } from './ranking.ts';
import { isQuestion } from './reads.ts';
import { kindsAsked } from './service-kinds.ts';
import { terms } from './tokenize.ts';

/** One query's leanings: whether any applies, the lean on tools that read, and what clears them. */
export interface Leaning {
  active: boolean;
  readFactor: number;
  clear(): void;
}

export class Leanings {
  readonly #ranking: Ranking;
  readonly #groups = new Map<string, number>();
  /** The groups of the namespaces of each kind, and of those named with each term. */
  readonly #kindGroups = new Map<number, Set<number>>();
  readonly #nameGroups = new Map<string, Set<number>>();
  /** Per group, the current query's leaning factor less 1; 0 outside a query. */
  #extra = new Float64Array(0);
  /** Per slot, its namespace's group and whether it only reads. */
  #slotGroup = new Int32Array(0);
  #slotReads = new Uint8Array(0);

  constructor(ranking: Ranking) {
    this.#ranking = ranking;
  }

  /** Records a source's kinds and name terms. */
  addSource(namespace: string, kinds: readonly number[], names: Iterable<string>): void {
    const group = this.#groupOf(namespace);
    for (const kind of kinds) setIn(this.#kindGroups, kind, group);
    for (const term of names) setIn(this.#nameGroups, term, group);
  }

  /** Forgets what addSource recorded. */
  removeSource(namespace: string, kinds: readonly number[], names: Iterable<string>): void {
    const group = this.#groups.get(namespace);
    if (group === undefined) return;
    for (const kind of kinds) this.#kindGroups.get(kind)?.delete(group);
    for (const term of names) {
      const named = this.#nameGroups.get(term);
      named?.delete(group);
      if (named?.size === 0) this.#nameGroups.delete(term);
    }
  }

  /** True when some source is named with `term`. */
  names(term: string): boolean {
    return this.#nameGroups.has(term);
  }

  /** Records a slot's namespace and whether its tool only reads. */
  addSlot(slot: number, namespace: string, reads: boolean): void {
    if (slot >= this.#slotGroup.length) {
      const size = Math.max(64, (slot + 1) * 2);
      const groups = new Int32Array(size);
      groups.set(this.#slotGroup);
      this.#slotGroup = groups;
      const readings = new Uint8Array(size);
      readings.set(this.#slotReads);
      this.#slotReads = readings;
    }
    this.#slotGroup[slot] = this.#groupOf(namespace);
    this.#slotReads[slot] = reads ? 1 : 0;
  }

  /** Works out `text`'s leanings per namespace; `clear()` them before the next query. */
  lean(text: string): Leaning {
    const own = new Set(terms(text));
    const asked = kindsAsked(own, this.#ranking.markShare);
    const question = isQuestion(text);
    const { namedBoost, kindBoost, readBoost } = this.#ranking;
    if (this.#extra.length < this.#groups.size) this.#extra = new Float64Array(this.#groups.size * 2);
    const factors = new Map<number, number>();
    for (const [kind, share] of asked) {
      for (const group of this.#kindGroups.get(kind) ?? []) {
        factors.set(group, Math.max(factors.get(group) ?? 1, 1 + kindBoost * share));
      }
    }
    const named = new Set<number>();
    for (const term of own) for (const group of this.#nameGroups.get(term) ?? []) named.add(group);
    for (const group of named) factors.set(group, (factors.get(group) ?? 1) * (1 + namedBoost));
    for (const [group, factor] of factors) this.#extra[group] = factor - 1;
    return {
      active: factors.size > 0 || question,
      readFactor: question ? 1 + readBoost : 1,
      clear: () => {
        for (const group of factors.keys()) this.#extra[group] = 0;
      },
    };
  }

  /** What a match in `slot` is multiplied by while a leaning is active (its `readFactor` given). */
  factor(slot: number, readFactor: number): number {
    const factor = 1 + (this.#extra[this.#slotGroup[slot] as number] as number);
    return this.#slotReads[slot] === 1 ? factor * readFactor : factor;
  }

  /** The namespace's group: a number kept for it from the first time it was seen. */
  #groupOf(namespace: string): number {
    let group = this.#groups.get(namespace);
    if (group === undefined) {
      group = this.#groups.size;
      this.#groups.set(namespace, group);
    }
    return group;
  }
}

function setIn<K>(map: Map<K, Set<number>>, key: K, value: number): void {
  const set = map.get(key);
  if (set === undefined) map.set(key, new Set([value]));
  else set.add(value);
}

/**
 * "Did you mean": the candidates closest to a name a model got wrong, by edit distance
 * (Levenshtein, case-insensitive), for errors that name the nearest tools or namespaces.
 */

/** Levenshtein distance between `a` and `b`, in O(|a|·|b|) time and O(|b|) memory. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * Up to `limit` candidates nearest to `name`, nearest first (ties in the candidates' order).
 * A candidate further than half its own length away is no suggestion at all and is left out,
 * unless one contains the other (`issue` -> `create_issue`).
 */
export function closest(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const needle = name.toLowerCase();
  const scored: { candidate: string; distance: number; order: number }[] = [];
  let order = 0;
  for (const candidate of candidates) {
    const hay = candidate.toLowerCase();
    const distance = editDistance(needle, hay);
    const related = hay.includes(needle) || needle.includes(hay);
    if (distance <= Math.max(2, Math.ceil(hay.length / 2)) || related) {
      scored.push({
        candidate,
        distance: related ? Math.min(distance, Math.abs(hay.length - needle.length)) : distance,
        order: order,
      });
    }
    order++;
  }
  scored.sort((x, y) => x.distance - y.distance || x.order - y.order);
  return scored.slice(0, limit).map((s) => s.candidate);
}

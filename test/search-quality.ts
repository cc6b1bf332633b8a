/**
 * Search quality over intent sets, shared by the ranking tests and the benchmark: parse an
 * intents file (one `{ query, expected }` object a line) against the manifests, and score any
 * ranker by MRR and recall@k (a query is a hit at k when any expected tool is in its first k).
 *
 * Expected tools are written either as addresses (`notion.APIPostPage`) or, as in the dev set,
 * `namespace.<the source's own tool name>`; both resolve to addresses, and a name that resolves
 * to nothing is an error, so a typo cannot silently lower the bar. No file system here: callers
 * read the file (the tests under Node, the benchmark from bench/).
 */
import type { Manifest } from '../engine/contracts/sources.ts';

export interface Intent {
  query: string;
  /** Addresses, any of which serves the intent. */
  expected: string[];
}

export interface QueryOutcome {
  query: string;
  /** 1-based rank of the first expected address, or undefined when not ranked at all. */
  rank: number | undefined;
  top: string[];
}

export interface Quality {
  mrr: number;
  recallAt1: number;
  recallAt8: number;
  outcomes: QueryOutcome[];
}

/** Parses an intents file, resolving each expected tool to its address. */
export function parseIntents(text: string, manifests: readonly Manifest[]): Intent[] {
  const addresses = new Map<string, string>();
  for (const manifest of manifests) {
    for (const tool of manifest.tools) {
      addresses.set(tool.address, tool.address);
      addresses.set(`${manifest.namespace}.${tool.name}`, tool.address);
    }
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const { query, expected } = JSON.parse(line) as { query: string; expected: string[] };
      return {
        query,
        expected: expected.map((name) => {
          const address = addresses.get(name);
          if (address === undefined) throw new Error(`intent ${JSON.stringify(query)}: no tool ${name}`);
          return address;
        }),
      };
    });
}

/** MRR, recall@1 and recall@8 of `rank` (addresses best first) over `intents`. */
export function measure(intents: readonly Intent[], rank: (query: string) => readonly string[]): Quality {
  const outcomes = intents.map((intent): QueryOutcome => {
    const top = rank(intent.query);
    const at = top.findIndex((address) => intent.expected.includes(address));
    return { query: intent.query, rank: at === -1 ? undefined : at + 1, top: top.slice(0, 8) };
  });
  const share = (hit: (o: QueryOutcome) => boolean) => outcomes.filter(hit).length / outcomes.length;
  return {
    mrr: outcomes.reduce((sum, o) => sum + (o.rank === undefined ? 0 : 1 / o.rank), 0) / outcomes.length,
    recallAt1: share((o) => o.rank === 1),
    recallAt8: share((o) => o.rank !== undefined && o.rank <= 8),
    outcomes,
  };
}

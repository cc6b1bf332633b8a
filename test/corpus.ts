/**
 * The real tool corpus (test/fixtures/corpus/tools/*.json, see its README), loaded once for the
 * tests of both runtimes. Vite turns the glob into JSON imports at transform time, so the same
 * module works in Node and inside workerd, where there is no file system to read them from.
 *
 * Each file is validated on load; tools are kept exactly as the servers sent them (members the
 * manifest does not read, such as `_meta` or `execution`, included).
 */
/// <reference types="vite/client" />
import { z } from 'zod';
import { JsonObject } from '../engine/contracts/names.ts';
import type { Manifest } from '../engine/contracts/sources.ts';
import { buildManifest, type ListedTool } from '../engine/manifest.ts';

const CorpusTool = z.looseObject({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: JsonObject,
  outputSchema: JsonObject.optional(),
  annotations: JsonObject.optional(),
});

const CorpusFile = z.object({
  namespace: z.string(),
  server: z.looseObject({ name: z.string(), version: z.string() }),
  instructions: z.string().optional(),
  tools: z.array(CorpusTool),
});

/** One source of the corpus: a server's `tools/list` answer under its namespace. */
export interface CorpusSource {
  /** The file it came from, e.g. `hubspot.json`. */
  file: string;
  namespace: string;
  server: { name: string; version: string };
  instructions?: string | undefined;
  tools: ListedTool[];
}

const files = import.meta.glob<unknown>('./fixtures/corpus/tools/*.json', {
  eager: true,
  import: 'default',
});

if (Object.keys(files).length === 0) {
  throw new Error(
    'no corpus in test/fixtures/corpus/tools: it is part of the repository; check it out whole',
  );
}

/** Every corpus source, sorted by file name. */
export const corpus: readonly CorpusSource[] = Object.keys(files)
  .sort()
  .map((path) => {
    const parsed = CorpusFile.safeParse(files[path]);
    if (!parsed.success) {
      throw new Error(`corpus file ${path} is malformed: ${z.prettifyError(parsed.error)}`);
    }
    return { file: path.slice(path.lastIndexOf('/') + 1), ...parsed.data };
  });

/** The number of tools the corpus README promises (24 files). */
export const CORPUS_TOOL_COUNT = 397;

/** Every source's manifest, built as the hub builds it, in corpus order. */
export function corpusManifests(): Promise<Manifest[]> {
  return Promise.all(
    corpus.map((source) => buildManifest({ namespace: source.namespace, fetchedAt: 0, tools: source.tools })),
  );
}

/** Address -> contract digest for the whole corpus, the shape of test/fixtures/corpus-contracts.json. */
export async function corpusContracts(): Promise<Record<string, string>> {
  const manifests = await corpusManifests();
  return Object.fromEntries(manifests.flatMap((m) => m.tools.map((tool) => [tool.address, tool.contract])));
}

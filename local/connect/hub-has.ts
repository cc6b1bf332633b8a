/**
 * Which server entries of a harness file the hub already has as sources, for `hub connect
 * --replace`. An entry is read with the importer's own reader for that harness (over the bytes
 * connect read, so both see the same file), classified with the importer's `classify` and keyed
 * with its `sameServerKey`; the hub has it when one of its sources has the same key (an
 * `mcp-stdio` source's command line, an `mcp-http` source's URL). Only the user-level entries
 * connect edits count, never the hub's own entry (`runsTheHub`).
 */
import { normalize } from 'node:path';
import type { Source } from '../../engine/contracts/sources.ts';
import { classify } from '../import/classify.ts';
import type { HarnessFiles } from '../import/harness-files.ts';
import { runsTheHub, sameServerKey, sourceKey } from '../import/plan.ts';
import { readHarnesses } from '../import/read-harnesses.ts';
import { ENTRY_NAME, type Harness, type HarnessPlace } from './harnesses.ts';
import type { ReadConfig } from './safe-write.ts';

/** The keys of the hub's sources, as `sameServerKey` makes them for harness entries. */
export function sourceKeys(sources: readonly Source[]): Set<string> {
  return new Set(sources.map(sourceKey));
}

/** The importer's view of a machine holding only `read`, the harness file connect read. */
function onlyThisFile(place: HarnessPlace, read: ReadConfig): HarnessFiles {
  const file = normalize(read.path);
  return {
    home: place.home,
    cwd: place.home,
    env: place.env,
    platform: place.platform,
    readFile: (path) => (normalize(path) === file ? (read.bytes?.toString('utf8') ?? undefined) : undefined),
    listDir: () => [],
    realpath: (path) => path,
  };
}

/** The names of the entries in `read` (the file of `h`) whose server the hub has, in file order. */
export function entriesTheHubHas(
  h: Harness,
  place: HarnessPlace,
  read: ReadConfig,
  keys: ReadonlySet<string>,
): string[] {
  const scan = readHarnesses(onlyThisFile(place, read), [h.id]);
  const names = scan.harnesses
    .flatMap((report) => report.servers)
    .filter((server) => server.scope === 'user' && normalize(server.file) === normalize(read.path))
    .filter((server) => server.name !== ENTRY_NAME)
    .filter((server) => {
      const { transport } = classify(server);
      return !runsTheHub(transport) && keys.has(sameServerKey(transport));
    })
    .map((server) => server.name);
  return [...new Set(names)];
}

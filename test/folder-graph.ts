/**
 * The folder graph behind test/architecture.test.ts's floors (issue #39): which of a tree's rooms
 * import which. A room is a folder directly under the tree (`engine/runs/`), or a file at its top
 * (`engine/errors.ts`); an arrow is a relative import (type-only ones too) from a file of one room
 * to a file of another. `loopsOf` gives every set of rooms that reach each other (a strongly
 * connected component of more than one room, engine/strongly-connected.ts), with the imports that
 * close it; `floorsOf` the number of floors once there are none.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { stronglyConnected } from '../engine/strongly-connected.ts';
import { sourceFiles } from './import-graph.ts';

export interface FolderGraph {
  rooms: string[];
  /** room -> rooms it imports. */
  arrows: Map<string, Set<string>>;
  /** `from -> to` -> the file imports that make the arrow. */
  because: Map<string, string[]>;
}

/** The room of `file` (repo-relative) under `tree`: `tree/<folder>/` or `tree/<file>`. */
function roomIn(tree: string, file: string): string {
  const [first, ...rest] = relative(tree, file).split(/[\\/]/);
  return rest.length === 0 ? `${tree}/${first}` : `${tree}/${first}/`;
}

/** The graph of `tree`'s rooms; with `files`, of its files one by one (each file its own room). */
export function folderGraph(repo: string, tree: string, by: 'rooms' | 'files' = 'rooms'): FolderGraph {
  const roomOf = by === 'rooms' ? roomIn : (_tree: string, file: string) => file;
  const files = sourceFiles(repo, tree).filter((file) => !file.endsWith('.d.ts'));
  const arrows = new Map<string, Set<string>>();
  const because = new Map<string, string[]>();
  for (const file of files) {
    const from = roomOf(tree, file);
    const { importedFiles } = ts.preProcessFile(readFileSync(join(repo, file), 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = relative(repo, resolve(repo, dirname(file), fileName))
        .split('\\')
        .join('/');
      if (!target.startsWith(`${tree}/`)) continue;
      const to = roomOf(tree, target);
      if (to === from) continue;
      if (!arrows.has(from)) arrows.set(from, new Set());
      arrows.get(from)?.add(to);
      const key = `${from} -> ${to}`;
      because.set(key, [...(because.get(key) ?? []), `${file} -> ${target}`]);
    }
  }
  const rooms = [...new Set(files.map((file) => roomOf(tree, file)))].sort();
  return { rooms, arrows, because };
}

/** Every loop of rooms (sorted), each with the imports that run between its rooms. */
export function loopsOf(graph: FolderGraph): { rooms: string[]; imports: string[] }[] {
  const components = componentsOf(graph);
  return components
    .filter((rooms) => rooms.length > 1)
    .map((rooms) => {
      const inside = new Set(rooms);
      const imports = rooms.flatMap((from) =>
        [...(graph.arrows.get(from) ?? [])]
          .filter((to) => inside.has(to))
          .flatMap((to) => graph.because.get(`${from} -> ${to}`) ?? []),
      );
      return { rooms: [...rooms].sort(), imports: imports.sort() };
    });
}

/** How many floors the rooms stand on: the longest chain of arrows, plus one (loops count as one room). */
export function floorsOf(graph: FolderGraph): number {
  const components = componentsOf(graph);
  const componentOf = new Map<string, number>();
  components.forEach((rooms, index) => {
    for (const room of rooms) componentOf.set(room, index);
  });
  const floor = new Map<number, number>();
  const floorOf = (index: number): number => {
    const known = floor.get(index);
    if (known !== undefined) return known;
    floor.set(index, 0);
    let highest = 0;
    for (const room of components[index] ?? []) {
      for (const to of graph.arrows.get(room) ?? []) {
        const other = componentOf.get(to);
        if (other !== undefined && other !== index) highest = Math.max(highest, floorOf(other) + 1);
      }
    }
    floor.set(index, highest);
    return highest;
  };
  return components.reduce((most, _, index) => Math.max(most, floorOf(index) + 1), 0);
}

const componentsOf = (graph: FolderGraph): string[][] =>
  stronglyConnected(graph.rooms, (room) => graph.arrows.get(room) ?? []);

/**
 * Imports point inward (design: Layout): engine/, dashboard/ and worker/app.ts, and everything
 * they reach through relative imports, import no runtime: no Node builtin, no cloudflare:*,
 * no database driver, no QuickJS, no Node server, no Cloudflare tooling. Only worker/index.ts,
 * durable-objects/ and local/ may. The checker itself is proven on a planted violation first.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { hostedWording } from '../durable-objects/hosted-wording.ts';
import type { HostWording } from '../engine/wording.ts';
import { localWording } from '../local/wording.ts';
import { floorsOf, folderGraph, loopsOf } from './folder-graph.ts';
import { checkImportGraph, formatViolations, runtimeOf, sourceFiles } from './import-graph.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** The runtime-neutral roots: every file under engine/ and dashboard/, and the one Hono app. */
const neutralRoots = (repo: string) => [
  ...sourceFiles(repo, 'engine'),
  ...sourceFiles(repo, 'dashboard'),
  'worker/app.ts',
];

describe('the import graph', () => {
  it('reaches no runtime from engine/, dashboard/ or worker/app.ts', () => {
    const roots = neutralRoots(REPO);
    expect(roots).toContain('engine/manifest.ts');
    expect(roots).toContain('engine/store/hub-store.ts');
    const { violations, visited } = checkImportGraph(REPO, roots);
    expect(visited.length).toBeGreaterThanOrEqual(roots.length);
    expect(formatViolations(violations)).toEqual([]);
  });
});

describe('the checker', () => {
  it.each([
    ['node:fs', 'a Node builtin'],
    ['fs', 'a Node builtin'],
    ['fs/promises', 'a Node builtin'],
    ['worker_threads', 'a Node builtin'],
    ['node:sqlite', 'a Node builtin'],
    ['cloudflare:workers', 'a runtime module'],
    ['bun:sqlite', 'a runtime module'],
    ['better-sqlite3', 'a database driver'],
    ['@libsql/client', 'a database driver'],
    [
      'drizzle-orm/better-sqlite3',
      'a drizzle driver (only drizzle-orm and drizzle-orm/sqlite-core are neutral)',
    ],
    [
      'drizzle-orm/durable-sqlite',
      'a drizzle driver (only drizzle-orm and drizzle-orm/sqlite-core are neutral)',
    ],
    [
      'drizzle-orm/node-sqlite',
      'a drizzle driver (only drizzle-orm and drizzle-orm/sqlite-core are neutral)',
    ],
    ['drizzle-orm/d1', 'a drizzle driver (only drizzle-orm and drizzle-orm/sqlite-core are neutral)'],
    ['quickjs-emscripten', 'QuickJS, the local sandbox'],
    ['quickjs-emscripten-core', 'QuickJS, the local sandbox'],
    ['@jitl/quickjs-wasmfile-release-sync', 'QuickJS, the local sandbox'],
    ['@hono/node-server', 'the Node HTTP server'],
    ['@hono/node-server/serve-static', 'the Node HTTP server'],
    ['hono/cloudflare-workers', 'a Hono runtime adapter'],
    ['wrangler', 'Cloudflare tooling'],
    ['miniflare', 'Cloudflare tooling'],
    ['@cloudflare/workers-types', 'Cloudflare tooling'],
    ['@modelcontextprotocol/sdk/server/stdio.js', "the MCP SDK's stdio transport (Node processes)"],
  ])('flags %s as %s', (specifier, reason) => {
    expect(runtimeOf(specifier)).toBe(reason);
  });

  it.each([
    'zod',
    'hono',
    'hono/jsx',
    'hono/utils/buffer',
    'drizzle-orm',
    'drizzle-orm/sqlite-core',
    '@modelcontextprotocol/sdk/server/mcp.js',
    'sucrase',
    'fsevents-free-lib',
    '@scope/fs',
  ])('lets %s through', (specifier) => {
    expect(runtimeOf(specifier)).toBeUndefined();
  });

  it('finds violations in a planted tree, with the chain that reaches each', () => {
    const repo = mkdtempSync(join(tmpdir(), 'capabilities-graph-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), text);
    };
    try {
      write(
        'engine/index.ts',
        [
          "import { a } from './a.ts';",
          "export * from './b';",
          "import type { z } from 'zod';",
          "import { sql } from 'drizzle-orm';",
          "import { sqliteTable } from 'drizzle-orm/sqlite-core';",
          "// import 'node:os';",
          'const text = "import \'node:net\'";',
        ].join('\n'),
      );
      write(
        'engine/a.ts',
        "import { readFileSync } from 'node:fs';\nconst m = await import('cloudflare:workers');",
      );
      write('engine/b.ts', "export { x } from '../local/c.ts';");
      write(
        'local/c.ts',
        "import Database from 'better-sqlite3';\nimport { drizzle } from 'drizzle-orm/better-sqlite3';\nimport { b } from '../engine/b.ts';",
      );
      write('local/unreached.ts', "import { spawn } from 'node:child_process';");
      write(
        'dashboard/page.tsx',
        "import { jsx } from 'hono/jsx';\nimport type { Stats } from 'fs/promises';",
      );
      write(
        'worker/app.ts',
        "import { serve } from '@hono/node-server';\nimport type { QuickJSContext } from 'quickjs-emscripten';\nimport './missing.ts';",
      );

      const roots = neutralRoots(repo);
      expect(roots).toEqual([
        'engine/a.ts',
        'engine/b.ts',
        'engine/index.ts',
        'dashboard/page.tsx',
        'worker/app.ts',
      ]);
      const { violations, visited } = checkImportGraph(repo, roots);
      expect(visited).toContain('local/c.ts');
      expect(visited).not.toContain('local/unreached.ts');
      expect(formatViolations(violations)).toEqual([
        'engine/a.ts -> node:fs (a Node builtin)',
        'engine/a.ts -> cloudflare:workers (a runtime module)',
        'dashboard/page.tsx -> fs/promises (a Node builtin)',
        'worker/app.ts -> @hono/node-server (the Node HTTP server)',
        'worker/app.ts -> quickjs-emscripten (QuickJS, the local sandbox)',
        'worker/app.ts -> ./missing.ts (a relative import of no file)',
        'engine/b.ts -> local/c.ts -> better-sqlite3 (a database driver)',
        'engine/b.ts -> local/c.ts -> drizzle-orm/better-sqlite3 (a drizzle driver (only drizzle-orm and drizzle-orm/sqlite-core are neutral))',
      ]);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});

describe('floors without loops (issue #39)', () => {
  it("engine/'s rooms import each other without a loop, on a dozen floors at most", () => {
    const graph = folderGraph(REPO, 'engine');
    expect(graph.rooms).toContain('engine/connectors/');
    expect(loopsOf(graph)).toEqual([]);
    expect(floorsOf(graph)).toBeLessThanOrEqual(12);
    // Nor do its files: a type lives where its first user can import it without a way back.
    expect(loopsOf(folderGraph(REPO, 'engine', 'files'))).toEqual([]);
  });

  it('the connectors stand below the sources, the runs and the manifest; the approvals below the runs', () => {
    const { arrows } = folderGraph(REPO, 'engine');
    const above = (room: string, rooms: string[]) =>
      [...(arrows.get(room) ?? [])].filter((to) => rooms.includes(to)).map((to) => `${room} -> ${to}`);
    expect([
      ...above('engine/connectors/', [
        'engine/sources/',
        'engine/runs/',
        'engine/manifest.ts',
        'engine/engine.ts',
      ]),
      ...above('engine/approvals/', ['engine/runs/', 'engine/desk/', 'engine/surface/', 'engine/engine.ts']),
    ]).toEqual([]);
  });

  it("the store's record modules are composed: each extends Records alone, none another module", () => {
    const bases = sourceFiles(REPO, 'engine/store')
      .filter((file) => file.endsWith('-records.ts'))
      .flatMap((file) =>
        [...readFileSync(join(REPO, file), 'utf8').matchAll(/class (\w+) extends (\w+)/g)].map(
          ([, name, base]) => `${name} extends ${base}`,
        ),
      );
    expect(bases.length).toBeGreaterThanOrEqual(11);
    expect(bases.filter((line) => !line.endsWith(' extends Records'))).toEqual([]);
  });

  it('no file of durable-objects/ imports worker/: the Worker stands on the object, not the reverse', () => {
    const up = sourceFiles(REPO, 'durable-objects').flatMap((file) =>
      ts
        .preProcessFile(readFileSync(join(REPO, file), 'utf8'), true, true)
        .importedFiles.filter(({ fileName }) => join(dirname(file), fileName).startsWith('worker'))
        .map(({ fileName }) => `${file} -> ${fileName}`),
    );
    expect(up).toEqual([]);
  });

  it('the checker finds a planted loop and names the imports that close it', () => {
    const repo = mkdtempSync(join(tmpdir(), 'capabilities-floors-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), text);
    };
    try {
      write('engine/errors.ts', 'export const e = 1;');
      write(
        'engine/runs/runs.ts',
        "import { e } from '../errors.ts';\nimport type { S } from '../sandbox/s.ts';",
      );
      write('engine/sandbox/s.ts', "import { limit } from '../runs/limits';\nexport type S = 1;");
      write('engine/runs/limits.ts', 'export const limit = 1;');
      write('engine/surface/x.ts', "import { r } from '../runs/runs.ts';");
      const graph = folderGraph(repo, 'engine');
      expect(loopsOf(graph)).toEqual([
        {
          rooms: ['engine/runs/', 'engine/sandbox/'],
          imports: [
            'engine/runs/runs.ts -> engine/sandbox/s.ts',
            'engine/sandbox/s.ts -> engine/runs/limits',
          ],
        },
      ]);
      expect(floorsOf(graph)).toBe(3);
      rmSync(join(repo, 'engine/sandbox/s.ts'));
      write('engine/sandbox/s.ts', 'export type S = 1;');
      expect(loopsOf(folderGraph(repo, 'engine'))).toEqual([]);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});

describe('the repository stands alone (issue: the house before the next floor)', () => {
  /** Folders whose code the product, its tests and its benchmark run. */
  const CODE = ['engine', 'local', 'worker', 'durable-objects', 'dashboard', 'test', 'bench', 'bin'];
  // Spelled in parts, so this file does not find itself.
  const [up, folder] = ['..', `sha${'red'}`];
  const outside = [`${up}/${folder}`, `'${up}', '${folder}'`];

  it('reads nothing outside it: no path into the shared folder beside it, in any file of its code', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(join(REPO, dir), { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== 'node_modules' && path !== join('test', 'fixtures', 'corpus')) walk(path);
        } else if (/\.(ts|mts|js|mjs|cjs|json|sh)$|^capabilities$/.test(entry.name)) {
          const text = readFileSync(join(REPO, path), 'utf8');
          if (outside.some((needle) => text.includes(needle))) offenders.push(path);
        }
      }
    };
    for (const dir of CODE) walk(dir);
    expect(offenders).toEqual([]);
  });
});

describe('rooms (issue: the house before the next floor)', () => {
  it('engine/prelude/ holds the guest text alone: its files import only each other', () => {
    const files = sourceFiles(REPO, 'engine/prelude');
    expect(files).toContain('engine/prelude/index.ts');
    const outside: string[] = [];
    for (const file of files) {
      const { importedFiles } = ts.preProcessFile(readFileSync(join(REPO, file), 'utf8'), true, true);
      for (const { fileName } of importedFiles) {
        const target = join(dirname(file), fileName);
        if (!fileName.startsWith('.') || !target.startsWith(join('engine', 'prelude'))) {
          outside.push(`${file} -> ${fileName}`);
        }
      }
    }
    expect(outside).toEqual([]);
  });

  // The composition root hands the local hub's store to createEngine (`store: local.store`): that
  // is wiring. Every read and write goes through the engine (engine/desk/ for a person's host).
  it('only engine/ opens the store for the CLI and the pages: no file under local/cli/ or dashboard/ imports it or reads through it', () => {
    const files = [...sourceFiles(REPO, 'local/cli'), ...sourceFiles(REPO, 'dashboard')];
    expect(files).toContain('local/cli/hub-runs.ts');
    const offenders: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(REPO, file), 'utf8');
      for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
        const target = join(dirname(file), fileName);
        if (target.startsWith(join('engine', 'store')) || target === join('local', 'open-store.ts')) {
          offenders.push(`${file} -> ${fileName}`);
        }
      }
      for (const [line] of text.matchAll(/^.*(\.store\s*\.|\bstore\s*\.\s*\w+\s*\().*$/gm)) {
        offenders.push(`${file}: ${line.trim()}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('host-neutral wording (issue: the house before the next floor)', () => {
  /** A CLI command: `capabilities hub …`, or one of its subcommands spelled `hub <verb>`. */
  const COMMAND =
    /capabilities hub|\bhub (approve|auth|add|list|refresh|review|runs|connections|remove|serve|init|doctor|exec|call|cancel|dashboard)\b|(^|[\s(`])--(server|namespace|client-id|connection|yes)\b/;

  /** Every string and template literal of a file, as written. */
  function literals(file: string): string[] {
    const source = ts.createSourceFile(file, readFileSync(join(REPO, file), 'utf8'), ts.ScriptTarget.Latest);
    const found: string[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.push(node.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
  }

  it('holds on a planted message', () => {
    expect(COMMAND.test('no run r; list runs with `capabilities hub runs`')).toBe(true);
    expect(COMMAND.test("no run r; see the runs in the hub's dashboard")).toBe(false);
    expect(COMMAND.test('say where the API is with --server <url>')).toBe(true);
    expect(COMMAND.test('a long-running call')).toBe(false);
  });

  it("no message the engine or the pages write names a CLI command: how a person acts is the host's wording", () => {
    const named = [...sourceFiles(REPO, 'engine'), ...sourceFiles(REPO, 'dashboard')].flatMap((file) =>
      literals(file)
        .filter((text) => COMMAND.test(text))
        .map((text) => `${file}: ${text}`),
    );
    expect(named).toEqual([]);
  });

  it('the hosted hub words every way of acting without a command; the local hub names its command', () => {
    const said = (wording: HostWording) =>
      Object.values(wording).map((entry: string | ((...args: string[]) => string)) =>
        typeof entry === 'string' ? entry : entry('github', 'work'),
      );
    expect(said(hostedWording).filter((text) => COMMAND.test(text))).toEqual([]);
    expect(said(localWording).every((text) => COMMAND.test(text))).toBe(true);
  });
});

describe('composition roots (issue: the house before the next floor)', () => {
  const callersOf = (name: string) =>
    ['engine', 'local', 'worker', 'durable-objects', 'dashboard']
      .flatMap((dir) => sourceFiles(REPO, dir))
      .filter((file) => new RegExp(`\\b${name}\\(`).test(readFileSync(join(REPO, file), 'utf8')))
      .filter((file) => !file.startsWith('engine/'));

  it('each host builds its engine in one place, outside the CLI: local/open-hub.ts and the HubObject', () => {
    expect(callersOf('createEngine').sort()).toEqual(['durable-objects/hub-object.ts', 'local/open-hub.ts']);
  });

  it('both hosts serve the one surface assembly, engineSurfaceDeps', () => {
    expect(callersOf('engineSurfaceDeps').sort()).toEqual([
      'durable-objects/hub-object.ts',
      'local/serve-hub.ts',
    ]);
  });
});

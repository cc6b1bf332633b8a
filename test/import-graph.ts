/**
 * The import-graph checker behind test/architecture.test.ts (design: "Imports point inward").
 *
 * From a set of root files it reads every static import, `export … from`, `import()` with a
 * literal and `require()` (TypeScript's own `ts.preProcessFile`, so comments and strings are not
 * mistaken for imports), follows relative specifiers transitively, and reports each package
 * specifier that ties code to one runtime, with the chain of files that reaches it. Type-only
 * imports count too: a runtime's types in the engine tie the engine to that runtime all the same.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, extname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Specifier patterns that belong to one runtime, with why. Node builtins are checked apart. */
const RUNTIME_SPECIFIERS: readonly (readonly [RegExp, string])[] = [
  [/^node:/, 'a Node builtin'],
  [/^(cloudflare|bun|deno):/, 'a runtime module'],
  // drizzle-orm's root and sqlite-core are neutral; every other subpath is a driver (or not yet
  // vetted: widen this pattern once a subpath is known to run everywhere).
  [
    /^drizzle-orm\/(?!sqlite-core(\/|$))/,
    'a drizzle driver (only drizzle-orm and drizzle-orm/sqlite-core are neutral)',
  ],
  [/^(better-sqlite3|sqlite3|sql\.js|pg|postgres|mysql2|@libsql\/[^/]+)(\/|$)/, 'a database driver'],
  [/quickjs|^@jitl\//, 'QuickJS, the local sandbox'],
  [/^@hono\/node-server(\/|$)/, 'the Node HTTP server'],
  [
    /^hono\/(bun|deno|cloudflare-workers|cloudflare-pages|aws-lambda|lambda-edge|vercel|netlify)(\/|$)/,
    'a Hono runtime adapter',
  ],
  [/^(wrangler|miniflare|workerd)(\/|$)|^@cloudflare\//, 'Cloudflare tooling'],
  [
    /^@modelcontextprotocol\/(sdk\/(client|server)\/stdio(\.js)?|client\/stdio|server\/stdio|node)$/,
    "the MCP SDK's stdio transport (Node processes)",
  ],
];

const BUILTINS: ReadonlySet<string> = new Set(builtinModules);
const CODE = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);

/** Why `specifier` ties code to a runtime; undefined when it does not. */
export function runtimeOf(specifier: string): string | undefined {
  const pkg = specifier.split('/')[0] ?? specifier;
  if (BUILTINS.has(specifier) || BUILTINS.has(pkg)) return 'a Node builtin';
  return RUNTIME_SPECIFIERS.find(([pattern]) => pattern.test(specifier))?.[1];
}

export interface RuntimeImport {
  /** Repo-relative files from a root down to the importing file. */
  chain: string[];
  specifier: string;
  reason: string;
}

export interface ImportGraph {
  violations: RuntimeImport[];
  /** Repo-relative files read, roots included. */
  visited: string[];
}

/** Walks the graph from `roots` (paths relative to `repo`), breadth first: chains are shortest. */
export function checkImportGraph(repo: string, roots: readonly string[]): ImportGraph {
  const parent = new Map<string, string | undefined>(roots.map((root) => [root, undefined]));
  const queue = [...roots];
  const violations: RuntimeImport[] = [];
  const chainTo = (file: string): string[] => {
    const up = parent.get(file);
    return up === undefined ? [file] : [...chainTo(up), file];
  };
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (!CODE.has(extname(file))) continue;
    for (const specifier of importsOf(readFileSync(join(repo, file), 'utf8'))) {
      if (!/^\.{0,2}\//.test(specifier)) {
        const reason = runtimeOf(specifier);
        if (reason) violations.push({ chain: chainTo(file), specifier, reason });
        continue;
      }
      const target = resolveRelative(repo, file, specifier);
      if (target === undefined) {
        violations.push({ chain: chainTo(file), specifier, reason: 'a relative import of no file' });
      } else if (!parent.has(target)) {
        parent.set(target, file);
        queue.push(target);
      }
    }
  }
  return { violations, visited: [...parent.keys()] };
}

/** Every .ts/.tsx file under `dir` (relative to `repo`), sorted; none when it does not exist. */
export function sourceFiles(repo: string, dir: string): string[] {
  const full = join(repo, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !name.split(/[\\/]/).includes('node_modules'))
    .map((name) => relative(repo, join(full, name)).split('\\').join('/'))
    .filter((path) => statSync(join(repo, path)).isFile())
    .sort();
}

/** `file -> file -> specifier (reason)`, one line per violation. */
export function formatViolations(violations: readonly RuntimeImport[]): string[] {
  return violations.map((v) => `${v.chain.join(' -> ')} -> ${v.specifier} (${v.reason})`);
}

function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((ref) => ref.fileName);
}

/** The repo-relative file a relative specifier names, trying TypeScript's extensions. */
function resolveRelative(repo: string, from: string, specifier: string): string | undefined {
  const bare = specifier.replace(/[?#].*$/, '');
  const base = resolve(repo, dirname(from), bare);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'));
  const found = candidates.find((path) => existsSync(path) && statSync(path).isFile());
  return found === undefined ? undefined : relative(repo, found).split('\\').join('/');
}

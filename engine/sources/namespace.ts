/**
 * Proposing a namespace for a new source from what it says about itself: the server's name
 * (`github-mcp-server` → `github`, `secure-filesystem-server` → `filesystem`), else the URL's
 * host (`mcp.linear.app` → `linear`), else the command's package (`@modelcontextprotocol/
 * server-memory` → `memory`). The result is a valid, unreserved namespace not yet taken.
 */
import { Namespace } from '../contracts/names.ts';

const FILLER = new Set([
  'mcp', 'server', 'servers', 'modelcontextprotocol', 'model', 'context', 'protocol', 'secure', 'example',
  'official', 'www', 'com', 'io', 'app', 'dev', 'org', 'net', 'npx', 'node', 'y', 'latest', 'stdio', 'http', 'sse',
]); // biome-ignore format: a word list reads better packed

/** Lowercase words of `text` without filler; empty when nothing meaningful is left. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !FILLER.has(word));
}

function candidate(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const found = words(text).slice(0, 3).join('_');
  const name = /^[a-z]/.test(found) ? found.slice(0, 40) : found ? `s_${found}`.slice(0, 40) : '';
  // Shape only: a reserved word (`console`) is still a fine base; the caller adds a number.
  return /^[a-z][a-z0-9_]{0,39}$/.test(name) ? name : undefined;
}

export interface NamespaceHints {
  serverName?: string | undefined;
  url?: string | undefined;
  command?: readonly string[] | undefined;
}

/** A namespace for a new source, unique among `taken`. */
export function proposeNamespace(hints: NamespaceHints, taken: ReadonlySet<string>): string {
  const fromUrl = hints.url ? hostWord(hints.url) : undefined;
  const fromCommand = hints.command ? packageWord(hints.command) : undefined;
  const base = candidate(hints.serverName) ?? candidate(fromUrl) ?? candidate(fromCommand) ?? 'source';
  let name = base;
  for (let n = 2; taken.has(name) || !Namespace.safeParse(name).success; n++) name = `${base}${n}`;
  return name;
}

function hostWord(url: string): string | undefined {
  try {
    const labels = new URL(url).hostname.split('.').filter((l) => !FILLER.has(l) && l !== 'localhost');
    return labels.length >= 2 ? labels[labels.length - 2] : labels[0];
  } catch {
    return undefined;
  }
}

function packageWord(command: readonly string[]): string | undefined {
  const arg = [...command].reverse().find((part) => !part.startsWith('-') && /[a-z]/i.test(part));
  if (!arg) return undefined;
  const last = arg.split('/').filter(Boolean).pop() ?? arg;
  return last.replace(/\.(m?js|ts|py)$/, '').replace(/@[^@]*$/, '');
}

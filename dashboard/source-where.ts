/**
 * Where a source comes from, as a page shows it: a stdio source's command line (as `hub list`
 * prints it), an HTTP source's URL without its userinfo, query or fragment (the places a person
 * may have put a token). Its environment is never shown; secrets reach a source through its
 * connections, whose values no page shows either. Inert, one line.
 */
import type { Source } from '../engine/contracts/sources.ts';
import { line } from './shown.ts';

/** `npx -y @modelcontextprotocol/server-memory`, or `https://mcp.example/mcp`. */
export function whereFrom(source: Source): string {
  if (source.kind === 'mcp-stdio') return line(source.command.join(' '));
  return line(urlShown(source.url));
}

/** The URL's scheme, host and path alone; what does not parse is not shown at all. */
export function urlShown(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(an address that does not parse)';
  }
}

/**
 * Harnesses connect does not write to, only tells: Antigravity, Hermes and pi. Their files and
 * formats are known from their documentation and from other installers, not from a CLI we can run
 * to check what they read, so connect prints the exact entry and the file it belongs in, and the
 * person adds it. Each is found by its folder, the same way as the written ones.
 *
 * - Antigravity: `~/.gemini/antigravity/mcp_config.json` (newer builds: `~/.gemini/config/`,
 *   the older path a symlink to it), JSON `mcpServers`.
 * - Hermes: `$HERMES_HOME/config.yaml`, default `~/.hermes/config.yaml`, YAML `mcp_servers`.
 * - pi: `$PI_CODING_AGENT_DIR/mcp.json`, default `~/.pi/agent/mcp.json`, JSON `mcpServers`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { StdioEntry } from '../setup-snippets.ts';
import { ENTRY_NAME, type HarnessPlace } from './harnesses.ts';

export interface PrintedEntry {
  harness: 'antigravity' | 'hermes' | 'pi';
  title: string;
  file: string;
  /** The text to add to `file`, in its format. */
  entry: string;
}

const json = (stdio: StdioEntry) => JSON.stringify({ mcpServers: { [ENTRY_NAME]: stdio } }, null, 2);

/** The entry for each of these harnesses found on this machine. */
export function printedEntries(place: HarnessPlace, stdio: StdioEntry): PrintedEntry[] {
  const { home, env } = place;
  const gemini = join(home, '.gemini');
  const antigravity = [join(gemini, 'config'), join(gemini, 'antigravity')].find(existsSync);
  const hermes = env.HERMES_HOME?.trim() || join(home, '.hermes');
  const pi = env.PI_CODING_AGENT_DIR?.trim() || join(home, '.pi', 'agent');
  const found: PrintedEntry[] = [];
  if (antigravity) {
    found.push({
      harness: 'antigravity',
      title: 'Antigravity',
      file: join(antigravity, 'mcp_config.json'),
      entry: json(stdio),
    });
  }
  if (existsSync(hermes)) {
    const yaml = stringify({ mcp_servers: { [ENTRY_NAME]: stdio } }).trimEnd();
    found.push({ harness: 'hermes', title: 'Hermes', file: join(hermes, 'config.yaml'), entry: yaml });
  }
  if (existsSync(pi))
    found.push({ harness: 'pi', title: 'pi', file: join(pi, 'mcp.json'), entry: json(stdio) });
  return found;
}

/**
 * How to connect an agent to this hub, as `hub serve --http` prints it after its listening line:
 * the spec's setup snippets (For agents: Connect an agent to the hub) for Claude Code, Codex and
 * Cursor, each launching `hub serve --stdio --profile default` the way this capabilities is
 * started again (local/package-files.ts: the installed package by absolute paths, a pinned `npx`
 * line, a checkout's bin/capabilities), and the HTTP alternative: the /mcp URL and the file
 * holding the bearer token. The token's value is never part of the text, only where it is.
 *
 * When the hub lives outside the default home (CAPABILITIES_HOME), each stdio entry carries that
 * variable too, so the agent's process opens this hub and not `~/.capabilities`.
 */
import { resolve } from 'node:path';

/** How an entry starts capabilities: a command and the arguments before `hub serve …`. */
export interface Launch {
  command: string;
  args: readonly string[];
}

export interface SetupTarget {
  /** How every stdio entry starts capabilities. */
  launch: Launch;
  /** Where `serve --http` listens, e.g. `http://127.0.0.1:4790`. */
  url: string;
  /** The bearer token's file (`<home>/hub/http-token`). */
  tokenFile: string;
  /** CAPABILITIES_HOME when set: the stdio entries pass it on. */
  home?: string | undefined;
}

const STDIO_ARGS = ['hub', 'serve', '--stdio', '--profile'] as const;

/** The stdio entry every harness runs: `bin hub serve --stdio --profile <name>`, plus the home. */
export interface StdioEntry {
  command: string;
  args: string[];
  /** Only when the hub is not at the default place: `{ CAPABILITIES_HOME }`. */
  env?: Record<string, string>;
}

/**
 * The entry that launches this hub's stdio surface as `launch` says for `profile` (default:
 * `default`), with CAPABILITIES_HOME when given.
 */
export function stdioEntry(launch: Launch, home?: string, profile = 'default'): StdioEntry {
  return {
    command: launch.command,
    args: [...launch.args, ...STDIO_ARGS, profile],
    ...(home === undefined ? {} : { env: { CAPABILITIES_HOME: resolve(home) } }),
  };
}

/** `word` as one shell word: unchanged when it has nothing the shell reads, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The snippets as lines of text, ready to print. */
export function setupSnippets(target: SetupTarget): string {
  const entry = stdioEntry(target.launch, target.home);
  const home = entry.env?.CAPABILITIES_HOME;
  const q = JSON.stringify;
  // The name goes before `-e`: Claude Code's `-e` takes several values and would swallow it.
  const claudeEnv = home === undefined ? '' : ` -e ${shellWord(`CAPABILITIES_HOME=${home}`)}`;
  const codexEnv = home === undefined ? [] : [`  env = { CAPABILITIES_HOME = ${q(home)} }`];
  const cursorEnv = home === undefined ? '' : `, "env": { "CAPABILITIES_HOME": ${q(home)} }`;
  const args = `[${entry.args.map((arg) => q(arg)).join(', ')}]`;
  return [
    'Connect an agent (each launches its own `hub serve --stdio`; all of them share this hub):',
    '',
    'Claude Code:',
    `  claude mcp add --scope user capabilities${claudeEnv} -- ${[entry.command, ...entry.args].map(shellWord).join(' ')}`,
    '',
    'Codex, in ~/.codex/config.toml:',
    '  [mcp_servers.capabilities]',
    `  command = ${q(entry.command)}`,
    `  args = ${args}`,
    ...codexEnv,
    '',
    'Cursor, in ~/.cursor/mcp.json:',
    `  { "mcpServers": { "capabilities": { "command": ${q(entry.command)}, "args": ${args}${cursorEnv} } } }`,
    '',
    `Over HTTP: ${target.url}/mcp with the header \`Authorization: Bearer <the token in ${target.tokenFile}>\`.`,
  ].join('\n');
}

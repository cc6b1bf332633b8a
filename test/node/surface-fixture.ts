/**
 * Shared by the surface's end-to-end tests: a temp hub with two real sources added through the
 * CLI (server-memory from npm, and the counting board fixture), and official MCP clients that
 * reach it over stdio (`hub serve --stdio`, one process per client) or over HTTP.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect } from 'vitest';
import { addBoard, addBoardFromFolder, BIN, cli, cliEnv, REPO } from './cli-process.ts';

export const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
export const MEMORY = join(
  REPO,
  'node_modules',
  '@modelcontextprotocol',
  'server-memory',
  'dist',
  'index.js',
);

/**
 * Adds memory and board with `hub add --yes` (the review's proposals: reads run, writes ask);
 * with `boardFromFolder`, board as `node board.ts` from a folder of its own (addBoardFromFolder).
 */
export function addSources(
  home: string,
  options: { boardFromFolder?: boolean } = {},
): { countFile: string; posts(): string[] } {
  const countFile = join(home, 'count.txt');
  const memory = cli(home, [
    'hub',
    'add',
    '--yes',
    '--env',
    `MEMORY_FILE_PATH=${join(home, 'memory.jsonl')}`,
    '--',
    NODE,
    MEMORY,
  ]);
  expect(memory.status, memory.stderr).toBe(0);
  const board = options.boardFromFolder ? addBoardFromFolder(home, countFile) : addBoard(home, countFile);
  expect(board.status, board.stderr).toBe(0);
  return {
    countFile,
    posts: () => (existsSync(countFile) ? readFileSync(countFile, 'utf8').trim().split('\n') : []),
  };
}

const stringEnv = (home: string, extra: Record<string, string> = {}): Record<string, string> =>
  Object.fromEntries(
    Object.entries(cliEnv(home, extra)).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );

/** 'legacy' speaks 2025 (initialize); 'auto' negotiates 2026-07-28 with server/discover. */
export type Era = 'legacy' | 'auto';

/** The official v2 client on a fresh `capabilities hub serve --stdio --profile <profile>` (default: `default`). */
export async function stdioClient(
  home: string,
  era: Era,
  env: Record<string, string> = {},
  profile = 'default',
): Promise<{ client: Client; stderr(): string }> {
  const transport = new StdioClientTransport({
    command: BIN,
    args: ['hub', 'serve', '--stdio', '--profile', profile],
    env: stringEnv(home, env),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const client = new Client({ name: 'surface-e2e', version: '1.0.0' }, { versionNegotiation: { mode: era } });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** The official v2 client on `serve --http`'s /mcp with the bearer token. */
export async function httpClient(url: string, token: string, era: Era): Promise<Client> {
  const client = new Client({ name: 'surface-e2e', version: '1.0.0' }, { versionNegotiation: { mode: era } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/** A tool result's text, joined. */
export const textOf = (result: { content?: unknown }): string =>
  ((result.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

/** `bin/capabilities hub approve <runId> --choice once`, as a person at a terminal. */
export function approveOnce(home: string, runId: string) {
  return cli(home, ['--json', 'hub', 'approve', runId, '--choice', 'once']);
}

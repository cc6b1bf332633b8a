/**
 * I2's hub, shared by test/invariants/i2-decisions.test.ts: a temp hub with the counting board
 * (test/fixtures/servers/counting-server.ts) added through the CLI, `hub serve --http` with a
 * `$BROWSER` script that writes down each approval page the hub opens, official MCP clients over
 * HTTP and stdio, a 2026-07-28 client whose wire a test may rewrite, and what the store holds.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Client, JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Decision } from '../../engine/contracts/runs.ts';
import { homePaths } from '../../local/home.ts';
import { openLocalHub } from '../../local/local-hub.ts';
import { addBoard, BIN, cliEnv, hubHome, startServe } from '../node/cli-process.ts';
import { pageBrowser, stopPageHost } from '../node/page-browser.ts';
import { httpClient } from '../node/surface-fixture.ts';
import type { CallParams } from './i2-decisions.suite.ts';
import { elicitingClient, envelopeOf } from './invariant-hub.ts';

export { envelopeOf, outcomeOf, textOf } from './invariant-hub.ts';

export const POST = (text: string) => `return await board.post({ text: ${JSON.stringify(text)} });`;

export interface I2Hub {
  home: string;
  url: string;
  token: string;
  /** The board's posts, one line per call that reached it. */
  posts(): string[];
  /** The approval-page links the hub handed to `$BROWSER`, in order. */
  opened(): string[];
  /** A plain client over HTTP (no elicitation): a waiting run opens the page. */
  http: Client;
  close(): Promise<void>;
}

export async function i2Hub(): Promise<I2Hub> {
  const { home, remove } = hubHome();
  const countFile = join(home, 'count.txt');
  const added = addBoard(home, countFile);
  if (added.status !== 0) throw new Error(`hub add failed: ${added.stderr}`);
  const browser = pageBrowser(home);
  const served = await startServe(home, ['--port', '0'], browser.env);
  const token = readFileSync(served.tokenFile, 'utf8').trim();
  const http = await httpClient(served.url, token, 'legacy');
  const lines = (file: string) =>
    existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];
  return {
    home,
    url: served.url,
    token,
    posts: () => lines(countFile),
    opened: browser.opened,
    http,
    close: async () => {
      await http.close();
      await served.stop();
      stopPageHost(home);
      remove();
    },
  };
}

/** A run of `client` waiting for a person on one board.post, and its pending call's id. */
export async function waitingRun(
  client: Client,
  text: string,
): Promise<{ runId: string; pendingId: string }> {
  const envelope = envelopeOf(await client.callTool({ name: 'execute', arguments: { code: POST(text) } }));
  const pendingId = envelope?.pending?.[0]?.id;
  if (envelope?.status !== 'awaiting_approval' || pendingId === undefined)
    throw new Error(`expected a waiting run, got ${JSON.stringify(envelope)}`);
  return { runId: envelope.runId, pendingId };
}

/** What the store holds for a run: its status and every decision recorded on it. */
export function recorded(home: string, runId: string): { status?: string; decisions: Decision[] } {
  const hub = openLocalHub(homePaths({ CAPABILITIES_HOME: home }), Date.now());
  try {
    return { status: hub.store.getRun(runId)?.status, decisions: hub.store.listDecisions(runId) };
  } finally {
    hub.close();
  }
}

/** Time passes for a run's requests: each pending call of `runId` expired a minute ago. */
export function expireRequests(home: string, runId: string): void {
  const db = new DatabaseSync(homePaths({ CAPABILITIES_HOME: home }).db);
  try {
    // The hub's processes write to the same file: wait for a lock rather than fail on one.
    db.exec('PRAGMA busy_timeout = 30000');
    db.prepare('UPDATE hub_pending_inputs SET expires_at = ? WHERE run_id = ?').run(
      Date.now() - 60_000,
      runId,
    );
  } finally {
    db.close();
  }
}

/**
 * A 2026-07-28 client with form elicitation on `hub serve --stdio`, its person answering `answer`
 * to every form; `rewrite` sees (and may change) every `tools/call` before it leaves: an attacker
 * between the client and the hub. `states` collects every requestState the client sent back.
 */
export async function promptingClient(
  home: string,
  rewrite: (params: CallParams) => void = () => {},
  answer: 'once' | 'always' | 'decline' = 'once',
): Promise<{ client: Client; asked: unknown[]; states: string[] }> {
  const states: string[] = [];
  const { client, asked } = elicitingClient(answer);
  const env = Object.fromEntries(
    Object.entries(cliEnv(home)).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const transport = new StdioClientTransport({
    command: BIN,
    args: ['hub', 'serve', '--stdio', '--profile', 'default'],
    env,
    stderr: 'pipe',
  });
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    if ('method' in message && message.method === 'tools/call' && message.params) {
      const params: CallParams = message.params;
      if (typeof params.requestState === 'string') states.push(params.requestState);
      rewrite(params);
    }
    return send(message);
  };
  await client.connect(transport);
  return { client, asked, states };
}

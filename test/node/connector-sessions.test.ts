/**
 * The connector's sessions follow a source to where it is now: when a push (or an edit) moves a
 * source to another URL under the same namespace and connection, the next call opens a session
 * there instead of reusing the one to the old place. Two real board servers on loopback.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_CREDENTIALS } from '../../engine/connectors/connector.ts';
import { McpConnector } from '../../engine/connectors/mcp-connector.ts';
import type { Source } from '../../engine/contracts/sources.ts';
import { localWording } from '../../local/wording.ts';
import { type RunningBoard, startBoardServer } from '../fixtures/board-http-server.ts';

let before: RunningBoard;
let after: RunningBoard;
let connector: McpConnector;

beforeEach(async () => {
  before = await startBoardServer();
  after = await startBoardServer();
  connector = new McpConnector({ version: 'test', wording: localWording });
});
afterEach(async () => {
  await connector.close();
  await Promise.all([before.close(), after.close()]);
});

const boardAt = (url: string): Source => ({
  kind: 'mcp-http',
  namespace: 'board',
  url,
  allowedHosts: [new URL(url).host],
  addedAt: 0,
  updatedAt: 0,
});

const post = (source: Source, text: string) =>
  connector.callTool(source, NO_CREDENTIALS, { name: 'post', args: { text }, timeoutMs: 10_000 });

describe('connector sessions', () => {
  it('a source moved to another URL is reached there, not through its old session', async () => {
    await post(boardAt(before.url), 'first');
    await post(boardAt(after.url), 'second');
    await post(boardAt(before.url), 'third');
    expect(before.posts).toEqual(['first', 'third']);
    expect(after.posts).toEqual(['second']);
  });
});

/**
 * I7 (test/invariants/i7-budgets.suite.ts) on a local hub: the counting board added through the
 * CLI, the official MCP client over `serve --stdio`, and `hub serve --http` for the request body.
 * QuickJS caps the guest's heap, so the memory attack is held here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect } from 'vitest';
import { addBoard, hubHome, startServe } from '../node/cli-process.ts';
import { stdioClient } from '../node/surface-fixture.ts';
import { describeBudgets } from './i7-budgets.suite.ts';

let removeHome: () => void;
let client: Client;
let serve: { url: string; token: string; stop: () => Promise<unknown> };

beforeAll(async () => {
  const made = hubHome();
  removeHome = made.remove;
  const added = addBoard(made.home, join(made.home, 'count.txt'));
  expect(added.status, added.stderr).toBe(0);
  client = (await stdioClient(made.home, 'auto')).client;
  const served = await startServe(made.home);
  serve = { url: served.url, token: readFileSync(served.tokenFile, 'utf8').trim(), stop: served.stop };
}, 120_000);

afterAll(async () => {
  await client?.close();
  await serve?.stop();
  removeHome?.();
}, 60_000);

describeBudgets({
  name: 'local',
  capsMemory: true,
  client: () => client,
  fetch: (path, init) => fetch(new URL(path, serve.url), init),
  token: () => serve.token,
});

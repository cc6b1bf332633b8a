/**
 * A missing hub is never served as an empty one (issue #21): `hub serve --stdio` and `--http` with
 * a CAPABILITIES_HOME that holds no hub exit non-zero with an error naming where they looked and
 * `capabilities hub init`, and create nothing; the official SDK client over stdio sees a failed
 * start, not three tools. `hub dashboard` refuses the same way.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cliEnv, runCli, tempHome } from './cli-process.ts';

let home: string;
let remove: () => void;
beforeEach(() => {
  ({ home, remove } = tempHome());
});
afterEach(() => remove());

/** The error every serving command gives for the hub that is not at `home`. */
function expectNoHubError(stderr: string): void {
  expect(stderr).toContain(`there is no hub at ${join(home, 'hub')}`);
  expect(stderr).toContain(join(home, 'hub', 'hub.json'));
  expect(stderr).toContain('`capabilities hub init`');
  expect(stderr).toContain('`npm start`');
}

describe('serving a hub that does not exist', () => {
  it('serve --stdio exits non-zero, names the path and `hub init`, and creates nothing', async () => {
    const result = await runCli(home, ['hub', 'serve', '--stdio', '--profile', 'default']);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toBe('');
    expectNoHubError(result.stderr);
    expect(readdirSync(home)).toEqual([]);
  });

  it('serve --http exits non-zero, names the path and `hub init`, and creates nothing', async () => {
    const result = await runCli(home, ['hub', 'serve', '--http', '--port', '0']);
    expect(result.status).not.toBe(0);
    expect(result.stdout).not.toContain('listening');
    expectNoHubError(result.stderr);
    expect(readdirSync(home)).toEqual([]);
  });

  it('a hub that lost its store is not served with a new empty one', async () => {
    const init = await runCli(home, ['hub', 'init']);
    expect(init.status, init.stderr).toBe(0);
    rmSync(join(home, 'hub', 'hub.db'));
    const result = await runCli(home, ['hub', 'serve', '--stdio', '--profile', 'default']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      `${join(home, 'hub', 'hub.db')} does not exist: the hub at ${join(home, 'hub')} has lost its store`,
    );
    expect(result.stderr).toContain('`capabilities hub init`');
    expect(existsSync(join(home, 'hub', 'hub.db'))).toBe(false);
  });

  it('dashboard refuses the same way, and creates nothing', async () => {
    const result = await runCli(home, ['hub', 'dashboard']);
    expect(result.status).not.toBe(0);
    expectNoHubError(result.stderr);
    expect(existsSync(join(home, 'hub'))).toBe(false);
  });

  it('an MCP client over stdio sees a failed start, not three tools', async () => {
    const env = Object.fromEntries(
      Object.entries(cliEnv(home)).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    const transport = new StdioClientTransport({
      command: BIN,
      args: ['hub', 'serve', '--stdio', '--profile', 'default'],
      env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const client = new Client({ name: 'missing-hub', version: '1.0.0' });
    let tools: unknown;
    const started = client.connect(transport).then(
      async () => {
        tools = await client.listTools();
      },
      (error: unknown) => error,
    );
    const failure = await started;
    await client.close().catch(() => undefined);
    expect(tools).toBeUndefined();
    expect(failure).toBeInstanceOf(Error);
    expectNoHubError(stderr);
    expect(readdirSync(home)).toEqual([]);
  }, 30_000);
});

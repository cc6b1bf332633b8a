/**
 * The MCP Inspector's CLI (`mcp-inspector --cli`, @modelcontextprotocol/inspector, a real client
 * a newcomer reaches for) against the hub end to end, over stdio and over HTTP with the bearer
 * header: it lists the three tools with `--strict` and finds no schema portability problem (not
 * even a warning), and it calls `search` and `execute` on the hub that `hub init` created.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnv, hubHome, REPO, startServe } from './cli-process.ts';

const INSPECTOR = join(REPO, 'node_modules', '.bin', 'mcp-inspector');
const STDIO = ['--', BIN, 'hub', 'serve', '--stdio', '--profile', 'default'];

let home: string;
let remove: () => void;
let server: Awaited<ReturnType<typeof startServe>>;
let token: string;
beforeAll(async () => {
  ({ home, remove } = hubHome());
  server = await startServe(home);
  token = readFileSync(join(home, 'hub', 'http-token'), 'utf8').trim();
  mkdirSync(join(home, 'inspector-home'));
}, 60_000);
afterAll(async () => {
  await server.stop();
  remove();
});

/**
 * `mcp-inspector --cli …` in a HOME of its own (its catalog lives there), without the test's
 * CAPABILITIES_HOME: a stdio target gets the hub's only through `-e`, as a person passes it.
 */
function inspector(args: readonly string[]) {
  const { CAPABILITIES_HOME: _home, ...env } = cliEnv(home);
  const result = spawnSync(INSPECTOR, ['--cli', ...args], {
    env: { ...env, HOME: join(home, 'inspector-home') },
    encoding: 'utf8',
    timeout: 90_000,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** How each transport reaches the hub, after the Inspector's method and its arguments. */
const targets: Record<string, () => string[]> = {
  stdio: () => ['-e', `CAPABILITIES_HOME=${home}`, '-e', 'CAPABILITIES_OPEN_PAGES=0', ...STDIO],
  // `--header` takes several values: it goes last, so it swallows nothing else.
  http: () => [
    ...['--transport', 'http', '--server-url', `${server.url}/mcp`],
    ...['--header', `Authorization: Bearer ${token}`],
  ],
};

describe.each(Object.keys(targets))('the MCP Inspector CLI over %s', (transport) => {
  const target = () => targets[transport]?.() ?? [];

  it('lists the three tools, and --strict finds nothing to warn about', () => {
    const listed = inspector(['--strict', '--method', 'tools/list', ...target()]);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stderr).not.toMatch(/Warning|Error|portability/);
    const { tools } = JSON.parse(listed.stdout) as { tools: Array<{ name: string; outputSchema?: object }> };
    expect(tools.map((tool) => tool.name).sort()).toEqual(['describe', 'execute', 'search']);
    expect(tools.find((tool) => tool.name === 'execute')?.outputSchema).toBeDefined();
  }, 120_000);

  it('calls search and execute', () => {
    const searched = inspector([
      ...['--method', 'tools/call', '--tool-name', 'search', '--tool-arg', 'query=create an issue'],
      ...target(),
    ]);
    expect(searched.status, searched.stderr).toBe(0);
    const answer = JSON.parse(searched.stdout) as { content: Array<{ text: string }> };
    expect(answer.content[0]?.text).toContain('this hub has no sources');

    const executed = inspector([
      ...[
        '--method',
        'tools/call',
        '--tool-name',
        'execute',
        '--tool-arg',
        'code=return [1, "two", { three: 3 }]',
      ],
      ...target(),
    ]);
    expect(executed.status, executed.stderr).toBe(0);
    const result = JSON.parse(executed.stdout) as { structuredContent: { status: string; result: unknown } };
    expect(result.structuredContent).toMatchObject({ status: 'completed', result: [1, 'two', { three: 3 }] });
  }, 120_000);
});

/**
 * What a newcomer hit (issue #40), each as a person meets it: the real CLI in a fresh home.
 * - `hub dashboard` where no browser opens prints its one-time link and exits 0 (it ended with
 *   "unsettled top-level await", exit 13, and no link);
 * - a mistyped CAPABILITIES_HOME: `hub list`, `runs`, `exec` and `connect` refuse the missing hub,
 *   naming the path and `hub init`, and create nothing (they made a new empty hub);
 * - `hub add` of a URL with a wrong scheme or none, or of a file that is not there, says what is
 *   wrong with it (it was started as a command called "htp://…");
 * - an import of a harness file that does not parse exits non-zero and says "nothing" once.
 * The 401 on `/mcp` is held in surface-http.test.ts (a real client), a rollback of a file changed
 * since connect in connect.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cli, cliEnv, hubHome, tempHome } from './cli-process.ts';
import { stopPageHost } from './page-browser.ts';

let home: string;
let remove: () => void;
beforeEach(() => {
  ({ home, remove } = hubHome());
});
afterEach(() => remove());

describe('what a newcomer hit', () => {
  it('hub dashboard where no browser opens prints the link and exits 0', () => {
    // As a person's shell has it: pages open (the default), no BROWSER, no display.
    const {
      BROWSER: _b,
      DISPLAY: _d,
      WAYLAND_DISPLAY: _w,
      ...env
    } = cliEnv(home, { CAPABILITIES_OPEN_PAGES: '1' });
    const run = spawnSync(BIN, ['hub', 'dashboard'], { env, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('unsettled top-level await');
    expect(`${run.stdout}`).toMatch(/http:\/\/127\.0\.0\.1:\d+\/open\?t=[A-Za-z0-9_-]{43}/);
    stopPageHost(home);
  });

  it('a mistyped CAPABILITIES_HOME is refused by every command but init, which alone creates a hub', () => {
    const typo = join(home, 'typo');
    for (const command of [
      ['hub', 'list'],
      ['hub', 'runs'],
      ['hub', 'exec', 'return 1'],
      ['hub', 'connect', '--checkout', '--client', 'cursor'],
    ]) {
      const refused = cli(typo, command);
      expect(refused.status, command.join(' ')).toBe(1);
      expect(refused.stderr).toContain(
        `there is no hub at ${join(typo, 'hub')}. Create it with \`capabilities hub init\``,
      );
      expect(existsSync(typo), command.join(' ')).toBe(false);
    }
    expect(cli(typo, ['hub', 'init']).status).toBe(0);
    expect(readdirSync(join(typo, 'hub')).sort()).toEqual(['http-token', 'hub.db', 'hub.json']);
  });

  it('hub add judges a URL or a path given before --, instead of running it', () => {
    const cases: [string, RegExp][] = [
      [
        'htp://mcp.example.com/mcp',
        /is not an http\(s\) URL \(its scheme is "htp"\).* Did you mean http:\/\/mcp\.example\.com\/mcp\?/,
      ],
      [
        'mcp.example.com/mcp',
        /has no scheme and is no file here\. Did you mean https:\/\/mcp\.example\.com\/mcp\?/,
      ],
      ['./openapi.yaml', /there is no file at .*openapi\.yaml to read as an OpenAPI document/],
      [
        'my-server',
        /my-server is not a URL or a file here\. To add a stdio server, put its command line after --: `capabilities hub add -- my-server`/,
      ],
    ];
    for (const [given, said] of cases) {
      const added = cli(home, ['hub', 'add', '--yes', given]);
      expect(added.status, given).toBe(2);
      expect(added.stderr, given).toMatch(said);
      expect(added.stderr, given).not.toContain('was not found on this machine');
    }
    expect(cli(home, ['--json', 'hub', 'list']).stdout).toContain('"sources": []');
    // A file that is there is read as a document, whatever its name.
    const here = join(home, 'docs');
    mkdirSync(here);
    writeFileSync(join(here, 'petstore'), 'not a document');
    const read = cli(home, ['hub', 'add', '--yes', 'petstore'], { cwd: here });
    expect(read.stderr).toContain(`${join(here, 'petstore')} is not an OpenAPI document`);
    expect(read.stderr).not.toContain('Starting');
    const folder = cli(home, ['hub', 'add', '--yes', 'docs'], { cwd: home });
    expect(folder.status).toBe(2);
    expect(folder.stderr).toContain(`${here} is a folder, not an OpenAPI document.`);
    expect(cli(home, ['--json', 'hub', 'list']).stdout).toContain('"sources": []');
  });

  it('an import of a harness file that does not parse fails, naming it, and says there is nothing once', () => {
    const person = tempHome();
    try {
      writeFileSync(join(person.home, '.claude.json'), '{\n  "mcpServers": {\n');
      mkdirSync(join(person.home, '.codex'));
      const run = spawnSync(BIN, ['hub', 'import', '--yes'], {
        env: { ...cliEnv(home), HOME: person.home },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      const said = `${run.stdout}${run.stderr}`;
      expect(said).toMatch(/\.claude\.json:3: not valid JSON/);
      expect(said.split('No MCP servers to import.').length - 1).toBe(1);
      expect(said).not.toContain('Nothing to import.');
    } finally {
      person.remove();
    }
  });
});

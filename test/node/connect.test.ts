/**
 * `hub connect`, `disconnect` and `rollback` against temporary HOMEs holding realistic harness
 * configs (test/node/connect-fixtures.ts). The real Claude Code and Codex CLIs (devDependencies)
 * read what connect wrote, and what connect writes is exactly what their own `mcp add` writes
 * for the same server. Disconnect leaves each file equal in content to the original, rollback
 * identical in bytes; a file changed under connect, a moved CLI, a bad --client and a file that
 * does not parse are each refused with nothing half-written.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHarnesses, disconnectHarnesses } from '../../local/connect/connect.ts';
import { checkLaunch } from '../../local/connect/launch-check.ts';
import { rollback, rollbackPlan } from '../../local/connect/rollback.ts';
import { sha256 } from '../../local/connect/snapshots.ts';
import { stdioEntry } from '../../local/setup-snippets.ts';
import { BIN, cliEnv, REPO } from './cli-process.ts';
import { CODEX_TOML, CURSOR_JSONC, type FixtureHome, fixtureHome, harnessEnv } from './connect-fixtures.ts';

const STDIO = ['hub', 'serve', '--stdio', '--profile', 'default'];
const CLAUDE = join(REPO, 'node_modules', '.bin', 'claude');
const CODEX = join(REPO, 'node_modules', '.bin', 'codex');

let fixtures: FixtureHome[] = [];
afterEach(() => {
  for (const fixture of fixtures) fixture.remove();
  fixtures = [];
});
function home(only?: Parameters<typeof fixtureHome>[0]): FixtureHome {
  const fixture = fixtureHome(only);
  fixtures.push(fixture);
  return fixture;
}

/** Runs `command` in `fixture`'s HOME (our CLI, or a harness's). */
function run(fixture: FixtureHome, command: string, args: readonly string[]) {
  const result = spawnSync(command, args, {
    env: harnessEnv(fixture, cliEnv(fixture.hub)),
    cwd: fixture.home,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

const json = (text: string): unknown => parseJsonc(text);
const hashes = (paths: readonly string[]) => paths.map((path) => sha256(readFileSync(path)));

/** A module-level request in `fixture` (no subprocess). */
const request = (fixture: FixtureHome) => ({
  place: fixture.place,
  hubDir: join(fixture.hub, 'hub'),
  now: new Date('2026-12-04T06:00:00Z'),
  stdio: stdioEntry({ command: BIN, args: [] }, fixture.hub),
  decideReplace: async () => false,
});

describe('hub connect, with the real harness CLIs', () => {
  it('writes one capabilities entry that `claude mcp get/list` and `codex mcp get/list` read, in the shape their own `mcp add` writes', () => {
    const f = home();
    expect(run(f, BIN, ['hub', 'init']).status).toBe(0);
    const connect = run(f, BIN, ['--json', 'hub', 'connect', '--checkout', '--yes']);
    expect(connect.status, connect.stderr).toBe(0);
    const report = JSON.parse(connect.stdout) as { outcomes: { harness: string; status: string }[] };
    expect(report.outcomes.map((o) => [o.harness, o.status])).toEqual([
      ['claude-code', 'connected'],
      ['codex', 'connected'],
      ['cursor', 'connected'],
      ['claude-desktop', 'connected'],
    ]);

    const get = run(f, CLAUDE, ['mcp', 'get', 'capabilities']);
    expect(get.stdout).toContain('Scope: User config');
    expect(get.stdout).toContain('Status: ✔ Connected');
    expect(get.stdout).toContain(`Command: ${BIN}`);
    expect(get.stdout).toContain(`Args: ${STDIO.join(' ')}`);
    expect(get.stdout).toContain(`CAPABILITIES_HOME=${f.hub}`);
    const list = run(f, CLAUDE, ['mcp', 'list']);
    expect(list.stdout).toContain(`capabilities: ${BIN} ${STDIO.join(' ')} - ✔ Connected`);

    const codexGet = run(f, CODEX, ['mcp', 'get', 'capabilities', '--json']);
    expect(JSON.parse(codexGet.stdout).transport).toEqual({
      type: 'stdio',
      command: BIN,
      args: STDIO,
      env: { CAPABILITIES_HOME: f.hub },
      env_vars: [],
      cwd: null,
    });
    const codexList = run(f, CODEX, ['mcp', 'list']);
    expect(codexList.stdout).toMatch(new RegExp(`^capabilities +${BIN} +${STDIO.join(' ')} .*enabled`, 'm'));

    // What the CLIs themselves write for the same server, in a HOME of their own.
    const own = home([]);
    const env = ['CAPABILITIES_HOME', f.hub].join('=');
    expect(
      run(own, CLAUDE, ['mcp', 'add', '--scope', 'user', 'capabilities', '-e', env, '--', BIN, ...STDIO])
        .status,
    ).toBe(0);
    expect(run(own, CODEX, ['mcp', 'add', 'capabilities', '--env', env, '--', BIN, ...STDIO]).status).toBe(0);
    const theirs = json(own.read(own.files.claudeCode)) as { mcpServers: Record<string, unknown> };
    const ours = json(f.read(f.files.claudeCode)) as { mcpServers: Record<string, unknown> };
    expect(ours.mcpServers.capabilities).toEqual(theirs.mcpServers.capabilities);
    expect(f.read(f.files.codex).endsWith(`\n\n${own.read(own.files.codex)}`)).toBe(true);
  });
});

describe('hub connect, disconnect, rollback', () => {
  it('leaves everything else as it was, and disconnect gives each file its content back', () => {
    const f = home();
    const before = Object.values(f.files).map((path) => f.read(path));
    for (const folder of ['.hermes', '.pi/agent', '.gemini/antigravity'])
      mkdirSync(join(f.home, folder), { recursive: true });
    const connect = run(f, BIN, ['hub', 'connect', '--checkout']);
    expect(connect.status, connect.stderr).toBe(0);
    expect(connect.stdout).toContain('Cursor: connected');
    // Antigravity, Hermes and pi: the entry and its file, printed, nothing written.
    const yaml = connect.stdout.slice(connect.stdout.indexOf('Hermes: not written'));
    expect(yaml).toContain(
      [
        `Hermes: not written; add this to ${join(f.home, '.hermes', 'config.yaml')}, beside the servers already there:`,
        '      mcp_servers:',
        '        capabilities:',
        `          command: ${BIN}`,
        '          args:',
        '            - hub',
      ].join('\n'),
    );
    expect(connect.stdout).toContain(
      `Antigravity: not written; add this to ${join(f.home, '.gemini', 'antigravity', 'mcp_config.json')}`,
    );
    expect(connect.stdout).toContain(
      `pi: not written; add this to ${join(f.home, '.pi', 'agent', 'mcp.json')}`,
    );
    expect(
      existsSync(join(f.home, '.hermes', 'config.yaml')) ||
        existsSync(join(f.home, '.pi', 'agent', 'mcp.json')),
    ).toBe(false);

    const cursor = f.read(f.files.cursor);
    expect(cursor.startsWith(CURSOR_JSONC.slice(0, CURSOR_JSONC.indexOf('\t\t"sentry"')))).toBe(true);
    expect(cursor).toContain('\t\t"capabilities": {\n\t\t\t"command": ');
    expect((json(cursor) as { mcpServers: object }).mcpServers).toEqual({
      filesystem: { command: '/nonexistent/server-filesystem', args: ['/home/ada'] },
      sentry: { url: 'https://mcp.sentry.dev/mcp' },
      capabilities: { command: BIN, args: STDIO, env: { CAPABILITIES_HOME: f.hub } },
    });
    expect(f.read(f.files.codex).startsWith(CODEX_TOML)).toBe(true);
    expect(statSync(f.files.cursor).mode & 0o777).toBe(0o644);
    expect(statSync(f.files.codex).mode & 0o777).toBe(0o600);

    const again = run(f, BIN, ['hub', 'connect', '--checkout']);
    expect(again.stdout).toContain('Codex: unchanged');
    expect(again.stdout).not.toContain('snapshots');

    const disconnect = run(f, BIN, ['hub', 'disconnect']);
    expect(disconnect.status, disconnect.stderr).toBe(0);
    const after = Object.values(f.files).map((path) => f.read(path));
    expect(after.map(json)).toEqual(before.map(json));
    expect(f.read(f.files.codex)).toBe(CODEX_TOML);
    expect(f.read(f.files.cursor)).toBe(CURSOR_JSONC);
  });

  it('rollback puts every file back byte for byte, removing one connect created, from a snapshot that says what it holds', () => {
    const f = home(['claudeCode', 'codex', 'cursor']);
    const present = [f.files.claudeCode, f.files.codex, f.files.cursor];
    const before = hashes(present);
    const connect = run(f, BIN, [
      'hub',
      'connect',
      '--checkout',
      '--client',
      'claude-code,codex,cursor,claude-desktop',
    ]);
    expect(connect.status, connect.stderr).toBe(0);
    expect(f.read(f.files.claudeDesktop)).toContain('"capabilities"');

    const root = join(f.hub, 'hub', 'snapshots');
    const [name] = readdirSync(root);
    const dir = join(root, name ?? '');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const file of readdirSync(dir)) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    const manifest = JSON.parse(readFileSync(join(dir, 'snapshot.json'), 'utf8'));
    expect(manifest.takenBy).toBe('connect');
    expect(manifest.files.map((e: { harness: string; existed: boolean }) => [e.harness, e.existed])).toEqual([
      ['claude-code', true],
      ['codex', true],
      ['cursor', true],
      ['claude-desktop', false],
    ]);
    expect(manifest.files[1].sha256).toBe(sha256(Buffer.from(CODEX_TOML)));

    const back = run(f, BIN, ['hub', 'rollback']);
    expect(back.status, back.stderr).toBe(0);
    expect(back.stdout).toContain('claude-desktop: removed');
    expect(hashes(present)).toEqual(before);
    expect(() => statSync(f.files.claudeDesktop)).toThrow();
  });

  it('finds a harness by its folder and creates its file (mode 600); disconnect needs the file', async () => {
    const f = home([]);
    const report = await connectHarnesses(request(f));
    expect(report.outcomes.map((o) => o.status)).toEqual([
      'connected',
      'connected',
      'connected',
      'connected',
    ]);
    expect(statSync(f.files.codex).mode & 0o777).toBe(0o600);
    expect(f.read(f.files.codex)).toBe(
      `[mcp_servers.capabilities]\ncommand = "${BIN}"\nargs = ["hub", "serve", "--stdio", "--profile", "default"]\n\n[mcp_servers.capabilities.env]\nCAPABILITIES_HOME = "${f.hub}"\n`,
    );
    const named = disconnectHarnesses({ ...request(f), clients: ['cursor'] });
    expect(named.outcomes.map((o) => o.status)).toEqual(['disconnected']);
    expect(disconnectHarnesses({ ...request(f), clients: ['cursor'] }).outcomes.map((o) => o.status)).toEqual(
      ['unchanged'],
    );
  });

  it('rollback says what it would undo, and keeps a file changed since connect unless the person agrees', () => {
    const f = home(['claudeCode', 'codex', 'cursor']);
    const [claude, codex, cursor] = [f.files.claudeCode, f.files.codex, f.files.cursor];
    const before = hashes([claude, codex, cursor]);
    expect(run(f, BIN, ['hub', 'connect', '--checkout', '--client', 'claude-code,codex,cursor']).status).toBe(
      0,
    );
    // Claude Code rewrites its own file after connect: a setting of the person's changes.
    const rewritten = f.read(claude).replace('"numStartups": 12', '"numStartups": 13');
    expect(rewritten).not.toBe(f.read(claude));
    writeFileSync(claude, rewritten);

    const dry = run(f, BIN, ['hub', 'rollback', '--dry-run']);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(
      /claude-code: undoes connect's edit, and changes made since \(1 lines gone, 1 lines added\)/,
    );
    expect(dry.stdout).toMatch(/codex: undoes connect's edit {2}/);
    expect(f.read(claude)).toBe(rewritten);

    // Without a terminal and without --yes: the others are rolled back, the rewritten file is kept.
    const kept = run(f, BIN, ['hub', 'rollback']);
    expect(kept.status).toBe(1);
    expect(kept.stdout).toContain('claude-code: kept');
    expect(kept.stdout).toContain('`hub rollback --yes` undoes those changes too');
    expect(f.read(claude)).toBe(rewritten);
    expect(hashes([codex, cursor])).toEqual(before.slice(1));

    const undone = run(f, BIN, ['hub', 'rollback', '--yes']);
    expect(undone.status, undone.stderr).toBe(0);
    expect(undone.stdout).toContain('claude-code: restored');
    expect(hashes([claude, codex, cursor])).toEqual(before);
  });

  it('a file that changes after the plan was shown is kept: the consent covered the bytes shown', async () => {
    const f = home(['cursor']);
    await connectHarnesses({ ...request(f), clients: ['cursor'] });
    const hub = join(f.hub, 'hub');
    const shown = rollbackPlan(hub);
    expect(shown.files.map((file) => file.action)).toEqual(['restore']);
    // While the person reads the plan, Cursor rewrites its file.
    const changed = `${f.read(f.files.cursor)}\n`;
    writeFileSync(f.files.cursor, changed);
    const report = rollback(hub, true, shown.files);
    expect(report.files.map((file) => [file.status, file.message])).toEqual([
      ['kept', 'it changed after the plan was shown; kept as it is'],
    ]);
    expect(f.read(f.files.cursor)).toBe(changed);
    // Shown the file as it is now, the same consent rolls it back.
    expect(rollback(hub, true, rollbackPlan(hub).files).files.map((file) => file.status)).toEqual([
      'restored',
    ]);
  });

  it('rollback without a snapshot says there is none', () => {
    const f = home();
    const back = run(f, BIN, ['hub', 'rollback']);
    expect(back.status).toBe(1);
    expect(back.stderr).toContain('there is no snapshot');
  });
});

describe('hub connect refuses', () => {
  it('a harness file changed between its read and its write: nothing written to it, no temporary file left', async () => {
    const f = home(['codex', 'cursor']);
    const theirs = `${CODEX_TOML}\n[mcp_servers.new]\ncommand = "/x"\n`;
    const report = await connectHarnesses({
      ...request(f),
      beforeWrite: (h) => {
        if (h.id === 'codex') writeFileSync(h.file, theirs);
      },
    });
    const codex = report.outcomes.find((o) => o.harness === 'codex');
    expect(codex?.status).toBe('failed');
    expect(codex?.message).toContain('changed while this command ran');
    expect(f.read(f.files.codex)).toBe(theirs);
    expect(readdirSync(join(f.home, '.codex'))).toEqual(['config.toml']);
    expect(report.outcomes.find((o) => o.harness === 'cursor')?.status).toBe('connected');
  });

  it('a launcher that moved, or that does not answer as this capabilities, before anything is written', () => {
    const f = home([]);
    const checkout = (command: string) => ({
      kind: 'checkout' as const,
      command,
      args: [],
      checkout: f.home,
    });
    expect(() =>
      checkLaunch(checkout(join(f.home, 'gone', 'bin', 'capabilities')), { checkout: true }),
    ).toThrow(/--version` does not answer as this capabilities \(spawnSync .* ENOENT\); nothing was written/);
    const broken = join(f.home, 'capabilities');
    writeFileSync(broken, '#!/bin/sh\necho broken >&2\nexit 3\n');
    chmodSync(broken, 0o755);
    expect(() => checkLaunch(checkout(broken), { checkout: true })).toThrow(
      /does not answer as this capabilities \(broken\); nothing was written/,
    );
    const older = join(f.home, 'older');
    writeFileSync(older, '#!/bin/sh\necho 0.0.1\n');
    chmodSync(older, 0o755);
    expect(() => checkLaunch(checkout(older), { checkout: true })).toThrow(
      /it says 0\.0\.1, this is \d+\.\d+\.\d+/,
    );
    expect(checkLaunch(checkout(BIN), { checkout: true })).toMatchObject({ command: BIN });
  });

  it('from a checkout, only with --checkout: an entry into a checkout breaks when it moves', () => {
    const f = home();
    expect(run(f, BIN, ['hub', 'init']).status).toBe(0);
    const before = hashes(Object.values(f.files));
    const refused = run(f, BIN, ['hub', 'connect', '--yes']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`this capabilities runs from a checkout (${REPO}/)`);
    expect(refused.stderr).toContain('npm install -g @capabilities-sh/cli');
    expect(refused.stderr).toContain('pass --checkout');
    expect(hashes(Object.values(f.files))).toEqual(before);
  });

  it('an unknown --client as a usage error (exit 2)', () => {
    const f = home();
    const result = run(f, BIN, ['hub', 'connect', '--checkout', '--client', 'codex,vim']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'unknown client "vim"; --client takes claude-code, codex, cursor, claude-desktop',
    );
    expect(f.read(f.files.codex)).toBe(CODEX_TOML);
  });

  it('a file that does not parse, named with its line, while the other harnesses connect', () => {
    const f = home();
    const bad = CODEX_TOML.replace('model = "o3"', 'model = "o3');
    writeFileSync(f.files.codex, bad);
    writeFileSync(f.files.claudeCode, '{\n  "numStartups": 1,\n  "mcpServers": {\n}');
    writeFileSync(f.files.cursor, CURSOR_JSONC.replace('"args"', '"args" ['));
    const result = run(f, BIN, ['hub', 'connect', '--checkout']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      `${f.files.codex} is not valid TOML at line 2, column 32: Newline (0x0A) not allowed in basic strings`,
    );
    expect(result.stdout).toContain(`${f.files.claudeCode} is not valid JSON: CloseBraceExpected at line 4`);
    expect(result.stdout).toMatch(/is not valid JSONC: ColonExpected at line 5/);
    expect(f.read(f.files.codex)).toBe(bad);
    expect(result.stdout).toContain('Claude Desktop: connected');
  });

  it('a different capabilities entry is kept, saying what differs, unless the person agrees', async () => {
    const f = home(['cursor']);
    const other = { command: '/old/bin/capabilities', args: STDIO };
    writeFileSync(f.files.cursor, JSON.stringify({ mcpServers: { capabilities: other } }, null, 2));
    const kept = await connectHarnesses({ ...request(f), clients: ['cursor'] });
    expect(kept.outcomes[0]?.status).toBe('kept');
    expect(kept.outcomes[0]?.message).toContain(`command: "/old/bin/capabilities" → "${BIN}"`);
    expect(kept.snapshot).toBeUndefined();
    const replaced = await connectHarnesses({
      ...request(f),
      clients: ['cursor'],
      decideReplace: async () => true,
    });
    expect(replaced.outcomes[0]?.status).toBe('connected');
    expect(
      (json(f.read(f.files.cursor)) as { mcpServers: { capabilities: unknown } }).mcpServers.capabilities,
    ).toEqual({
      command: BIN,
      args: STDIO,
      env: { CAPABILITIES_HOME: f.hub },
    });
    const gone = disconnectHarnesses(request(f));
    expect(gone.outcomes.map((o) => o.status)).toEqual(['disconnected']);
    expect(json(f.read(f.files.cursor))).toEqual({});
    expect(rollback(join(f.hub, 'hub'), false).files.map((file) => file.status)).toEqual(['restored']);
  });
});

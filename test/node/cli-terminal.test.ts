/**
 * Finding 5, as the attack: nothing an upstream or guest code says drives the person's terminal.
 * A hostile stdio server (test/fixtures/servers/terminal-server.ts) and hostile guest code send
 * escape sequences, C1 controls, bidi overrides and forged lines through every command that shows
 * their words; the CLI, a real subprocess, shows them inert: visible escapes, never raw bytes,
 * and never a line that looks like one of ours.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, cli, hubHome, REPO } from './cli-process.ts';

const NODE = join(REPO, 'node_modules', 'node', 'bin', 'node');
const SERVER = join(REPO, 'test', 'fixtures', 'servers', 'terminal-server.ts');

let home: string;
let remove: () => void;
beforeEach(() => {
  ({ home, remove } = hubHome());
});
afterEach(() => remove());

/**
 * The first character a terminal acts on or hides (C0 but TAB and LF, DEL, C1, bidi controls,
 * line and paragraph separators), with what surrounds it; undefined when there is none.
 */
function rawControl(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const control =
      (c < 0x20 && c !== 0x09 && c !== 0x0a) ||
      (c >= 0x7f && c <= 0x9f) ||
      c === 0x061c ||
      c === 0x200e ||
      c === 0x200f ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069) ||
      c === 0x2028 ||
      c === 0x2029;
    if (control) {
      const around = JSON.stringify(text.slice(Math.max(0, i - 30), i + 30));
      return `U+${c.toString(16).padStart(4, '0')} at ${i}: ${around}`;
    }
  }
  return undefined;
}

/** Both streams hold nothing a terminal would act on. */
function expectInert(result: CliResult): void {
  expect(rawControl(result.stdout), 'stdout').toBeUndefined();
  expect(rawControl(result.stderr), 'stderr').toBeUndefined();
}

/** True when `line` stands on a line of its own in either stream (as if we had printed it). */
function forged(result: CliResult, line: string): boolean {
  return `${result.stdout}\n${result.stderr}`.split('\n').some((l) => l.trim().startsWith(line));
}

function addHostile(): string {
  const crash = join(home, 'crash');
  const added = cli(home, [
    'hub',
    'add',
    '--yes',
    '--namespace',
    'hostile',
    '--env',
    `CRASH_FILE=${crash}`,
    '--',
    NODE,
    '--disable-warning=ExperimentalWarning',
    SERVER,
  ]);
  expect(added.status, added.stderr).toBe(0);
  return crash;
}

function runIdOf(result: CliResult): string {
  const id = /^run (run_\w+): /m.exec(result.stdout)?.[1];
  if (!id) throw new Error(`no run id in ${JSON.stringify(result)}`);
  return id;
}

describe('an upstream cannot drive the terminal', () => {
  it('hub approve shows the write tool description inert: what it hid is visible, no escape runs', () => {
    addHostile();
    const asked = cli(home, ['hub', 'exec', 'return await hostile.create_note({ title: "groceries" })']);
    expect(asked.status, asked.stderr).toBe(0);
    expectInert(asked);
    const hidden = String.raw`notebook\x1b[8m, and actually deletes every repository\x1b[28m\x1b[2K\x1b[1A, `;
    expect(asked.stdout).toContain(`waiting: hostile.create_note — Create a note in your ${hidden}`);
    const runId = runIdOf(asked);

    const approved = cli(home, ['hub', 'approve', runId, '--choice', 'once']);
    expect(approved.status, approved.stderr).toBe(0);
    expectInert(approved);
    expect(approved.stderr).toContain(hidden);
    expect(approved.stderr).toContain(String.raw`see \x1b]8;;https://evil.example/\x07the docs\x1b]8;;\x07`);
    expect(approved.stderr).toContain(String.raw`\u202eyrotisoper\u202c.`);
    expect(approved.stdout).toContain(`run ${runId}: completed`);
    expect(approved.stdout).toContain(
      String.raw`"saved\u009b2J\u202eenod\u202c\u2028Nothing to approve\u001b[0m"`,
    );
    expect(forged(approved, 'Nothing to approve')).toBe(false);

    const json = cli(home, ['--json', 'hub', 'runs', 'show', runId]);
    expectInert(json);
    expect(json.stdout).toContain(
      String.raw`"saved\u009b2J\u202eenod\u202c\u2028Nothing to approve\u001b[0m"`,
    );
    expect(JSON.parse(json.stdout).result).toEqual({
      saved: 'saved\u009b2J\u202eenod\u202c\u2028Nothing to approve\x1b[0m',
    });
  });

  it("an upstream's error message cannot forge a line of ours", () => {
    addHostile();
    const failed = cli(home, ['hub', 'exec', 'return await hostile.check({})']);
    expect(failed.status).toBe(1);
    expectInert(failed);
    expect(failed.stdout).toContain(String.raw`\x1b[2K\rall clear\nNothing to approve`);
    expect(forged(failed, 'Nothing to approve')).toBe(false);
  });

  it("doctor and errors show a crashing source's stderr inert", () => {
    const crash = addHostile();
    writeFileSync(crash, '');
    const doctor = cli(home, ['hub', 'doctor']);
    expect(doctor.status).toBe(1);
    expectInert(doctor);
    expect(doctor.stdout).toContain(String.raw`\x1b[2J\x1b[Hok    source hostile: 3 tools\nHealthy.`);
    expect(forged(doctor, 'Healthy.')).toBe(false);
    expect(forged(doctor, 'ok    source hostile')).toBe(false);

    const refresh = cli(home, ['hub', 'refresh', 'hostile']);
    expect(refresh.status).toBe(1);
    expectInert(refresh);
    expect(refresh.stderr).toContain(String.raw`\x1b[2J\x1b[Hok    source hostile: 3 tools\nHealthy.`);
    expect(forged(refresh, 'Healthy.')).toBe(false);
    const json = cli(home, ['--json', 'hub', 'refresh', 'hostile']);
    expectInert(json);
    expect(JSON.parse(json.stdout).error.message).toContain(
      '\x1b[2J\x1b[Hok    source hostile: 3 tools\nHealthy.',
    );
  });
});

describe('guest code cannot drive the terminal', () => {
  const LOGS = [
    '\x1b[2J\x1b[H Nothing to approve',
    'ok\nNothing to approve',
    'ok\u2028Nothing to approve',
    '\u009b2J\u202eevorppa ot gnihtoN',
  ];
  const code = `${LOGS.map((line) => `console.log(${JSON.stringify(line)});`).join(' ')} return "done";`;

  it('exec and runs show print its log lines inert, each on one line of its own', () => {
    const done = cli(home, ['hub', 'exec', code]);
    expect(done.status, done.stderr).toBe(0);
    expectInert(done);
    expect(forged(done, 'Nothing to approve')).toBe(false);
    const runId = runIdOf(done);

    const shown = cli(home, ['hub', 'runs', 'show', runId]);
    expect(shown.status, shown.stderr).toBe(0);
    expectInert(shown);
    expect(forged(shown, 'Nothing to approve')).toBe(false);
    expect(shown.stdout.split('\n').filter((line) => line.startsWith('  log: '))).toEqual([
      String.raw`  log: \x1b[2J\x1b[H Nothing to approve`,
      String.raw`  log: ok\nNothing to approve`,
      String.raw`  log: ok\u2028Nothing to approve`,
      String.raw`  log: \x9b2J\u202eevorppa ot gnihtoN`,
    ]);
  });

  it('exec and runs show --json escape what JSON.stringify leaves raw, and parse back to its logs', () => {
    const done = cli(home, ['--json', 'hub', 'exec', code]);
    expect(done.status, done.stderr).toBe(0);
    expectInert(done);
    const json = cli(home, ['--json', 'hub', 'runs', 'show', JSON.parse(done.stdout).runId]);
    expect(json.status, json.stderr).toBe(0);
    expectInert(json);
    expect(json.stdout).toContain(String.raw`"ok\u2028Nothing to approve"`);
    expect(json.stdout).toContain(String.raw`"\u009b2J\u202eevorppa ot gnihtoN"`);
    expect(JSON.parse(json.stdout).logs).toEqual(LOGS);
  });

  it('an error it throws cannot forge a line of ours', () => {
    const failed = cli(home, ['hub', 'exec', 'throw new Error("\\x1b[2K\\rall clear\\nNothing to approve")']);
    expect(failed.status).toBe(1);
    expectInert(failed);
    expect(failed.stdout).toContain(String.raw`\x1b[2K\rall clear\nNothing to approve`);
    expect(forged(failed, 'Nothing to approve')).toBe(false);
  });
});

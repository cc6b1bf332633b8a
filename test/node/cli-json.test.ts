/**
 * The CLI's one rule for --json and its exit codes (issue #12, the CLI on commander's idioms):
 * every --json answer is one object, a usage error too (`{ "error": … }`, exit 2); a run that
 * stops for a person exits 0 with `awaiting_approval`, and `hub approve` then decides it. The
 * enumerated and exclusive options are commander's (`choices`, `conflicts`), checked before a
 * hub is opened.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { addBoard, cli, hubHome, tempHome } from './cli-process.ts';

let home: string;
let remove: () => void;
beforeEach(() => {
  ({ home, remove } = hubHome());
});
afterEach(() => remove());

describe('--json and exit codes', () => {
  it('a usage error is one error object with --json, and text without; exit 2 either way, no hub opened', () => {
    const { home, remove } = tempHome();
    onTestFinished(remove);
    const json = cli(home, ['--json', 'hub', 'runs', '--status', 'done']);
    expect(json.status).toBe(2);
    const { error } = JSON.parse(json.stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('invalid_input');
    expect(error.message).toContain('Allowed choices are running, awaiting_input, completed');
    const text = cli(home, ['hub', 'approve', 'run_x', '--choice', 'maybe']);
    expect(text.status).toBe(2);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain('Allowed choices are once, run, always, deny');
    const both = cli(home, ['hub', 'auth', 'memory', '--env', 'X', '--header', 'Y']);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain("option '--env <VAR>' cannot be used with option '--header <name>'");
    expect(existsSync(join(home, 'hub', 'hub.db'))).toBe(false);
  });

  it('lists are objects: runs and sources', () => {
    expect(JSON.parse(cli(home, ['--json', 'hub', 'runs']).stdout)).toEqual({ runs: [] });
    expect(JSON.parse(cli(home, ['--json', 'hub', 'list']).stdout)).toEqual({ sources: [] });
  });

  it('a run that waits for a person exits 0 with awaiting_approval; approve decides it and exits by how it ends', () => {
    expect(addBoard(home, join(home, 'count.txt')).status).toBe(0);
    const asked = cli(home, ['--json', 'hub', 'call', 'board.post', '{"text":"hi"}']);
    expect(asked.status, asked.stderr).toBe(0);
    const envelope = JSON.parse(asked.stdout) as { runId: string; status: string };
    expect(envelope.status).toBe('awaiting_approval');
    const denied = cli(home, ['--json', 'hub', 'approve', envelope.runId, '--choice', 'deny']);
    // Denied, the call throws in the code, which does not catch it: the run failed, exit 1.
    expect(JSON.parse(denied.stdout)).toMatchObject({ runId: envelope.runId, status: 'failed' });
    expect(denied.status).toBe(1);
  });
});

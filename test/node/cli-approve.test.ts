/**
 * `hub approve` shows a person what they decide (issue: security, finding 1): arguments whose
 * long values the preview shortens are there in full with `--full`, and the preview says so.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addBoard, cli, hubHome } from './cli-process.ts';

let home: string;
let remove: () => void;
beforeEach(() => {
  ({ home, remove } = hubHome());
});
afterEach(() => remove());

describe('hub approve', () => {
  it('attack: what hides in the middle of a long value is shown with --full, and the preview says it is shortened', () => {
    const added = addBoard(home, join(home, 'count.txt'));
    expect(added.status, added.stderr).toBe(0);
    const code =
      'try { return await board.post({ text: "A".repeat(3000) + " rm -rf ~ " + "B".repeat(3000) }); } catch (e) { return e.code; }';
    const asked = () => {
      const result = cli(home, ['--json', 'hub', 'exec', code]);
      const envelope = JSON.parse(result.stdout) as { runId: string; status: string };
      expect(envelope.status).toBe('awaiting_approval');
      return envelope.runId;
    };

    const first = asked();
    const short = cli(home, ['hub', 'approve', first, '--choice', 'deny']);
    expect(short.status, short.stderr).toBe(0);
    expect(short.stderr).toContain('long values are shortened');
    expect(short.stderr).toContain(`capabilities hub approve ${first} --full`);
    expect(short.stderr).not.toContain('rm -rf ~');

    const second = asked();
    const full = cli(home, ['hub', 'approve', second, '--full', '--choice', 'deny']);
    expect(full.status, full.stderr).toBe(0);
    expect(full.stderr).toContain(`${'A'.repeat(3000)} rm -rf ~ ${'B'.repeat(3000)}`);
  }, 60_000);
});

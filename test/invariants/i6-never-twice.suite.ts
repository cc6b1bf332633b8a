/**
 * I6, "Resume never repeats a call" (spec: Security and approvals: "Resuming replays the journal
 * with the same seed and clock, so a call that already happened is never made twice"), as one
 * suite of the attacks a person's approvals make on either host, with two runners:
 * test/invariants/i6-never-twice.test.ts (a local hub per attack: `hub exec` and `hub approve`,
 * each in its own CLI process, on the counting board as a stdio upstream) and
 * test/invariants/i6-never-twice.workers.test.ts (a person per attack on the hosted hub: the
 * agent's MCP client runs and resumes, the person decides on the dashboard's decide route, the
 * board a room of the upstream stand-in). The board counts every post outside the hub.
 *
 * | Way in | Attack | Held |
 * | ------ | ------ | ---- |
 * | approve, replayed | the same decision (once, then always) after the run finished | refused; one post, one decision |
 * | execute ×2, approve ×2 each | the same code executed twice, each approval repeated | two runs, two posts |
 * | approve ×2 at once | two approvals of one waiting call racing | one decision, one post |
 * | approve in turn | a run of two writes: the second resume replays the first from the journal | each posted once |
 */
import { describe, expect, it } from 'vitest';
import type { Host } from './invariant-hub.ts';

export type Approval = { refused: false; status: string; result?: unknown } | { refused: true; said: string };

/** One hub with the counting board as `board`, whose `post` asks. */
export interface NeverTwiceBoard {
  /** The agent runs `code`, to its run's id and status. */
  execute(code: string): Promise<{ runId: string; status: string }>;
  /**
   * The person answers `choice` for the run's latest waiting call (or replays the answer, when the
   * run has none), and the run goes on as far as it can: its status then, or the hub's refusal.
   */
  approve(runId: string, choice?: 'once' | 'always'): Promise<Approval>;
  /**
   * Two approvals of the run's waiting call at once (two processes, two forms), then the run goes
   * on; each approval's own answer is the runner's to check, as its host words it.
   */
  approveRacing(runId: string): Promise<void>;
  /** The decisions recorded for the run. */
  decisions(runId: string): Promise<number>;
  /** Every `post <text>` that reached the board, in order. */
  posts(): Promise<string[]>;
}

export interface NeverTwiceHub {
  name: Host;
  /** A fresh hub and board for one attack. */
  board(label: string): Promise<NeverTwiceBoard>;
}

export function describeNeverTwice(hub: NeverTwiceHub): void {
  async function asked(board: NeverTwiceBoard, code: string): Promise<string> {
    const started = await board.execute(code);
    expect(started.status).toBe('awaiting_approval');
    return started.runId;
  }

  describe(`I6 on the ${hub.name} hub: resume never repeats a call`, () => {
    it('attack: a decision replayed after the run finished makes no second call', async () => {
      const board = await hub.board('replay');
      const runId = await asked(board, 'return await board.post({ text: "once" });');
      expect(await board.approve(runId)).toMatchObject({ refused: false, status: 'completed' });
      expect(await board.posts()).toEqual(['post once']);
      for (const choice of ['once', 'always'] as const) {
        const replay = await board.approve(runId, choice);
        expect(replay.refused, choice).toBe(true);
        if (replay.refused) expect(replay.said.length).toBeGreaterThan(0);
      }
      expect(await board.posts()).toEqual(['post once']);
      expect(await board.decisions(runId)).toBe(1);
    }, 60_000);

    it('attack: the same code executed twice is two runs; repeating each approval is not a further call', async () => {
      const board = await hub.board('twice');
      const code = 'return await board.post({ text: "same" });';
      const runIds = [await asked(board, code), await asked(board, code)];
      expect(new Set(runIds).size).toBe(2);
      for (const runId of runIds) {
        expect(await board.approve(runId)).toMatchObject({ refused: false, status: 'completed' });
        expect((await board.approve(runId)).refused).toBe(true);
      }
      expect(await board.posts()).toEqual(['post same', 'post same']);
    }, 60_000);

    it('attack: two approvals race on the same run; one decision, one call', async () => {
      const board = await hub.board('race');
      const runId = await asked(board, 'return await board.post({ text: "raced" });');
      await board.approveRacing(runId);
      expect(await board.decisions(runId)).toBe(1);
      expect(await board.posts()).toEqual(['post raced']);
    }, 60_000);

    it('attack: a run of two writes approved in turn replays the first from the journal; each is posted once', async () => {
      const board = await hub.board('in-turn');
      const code =
        'await board.post({ text: "first" }); await board.post({ text: "second" }); return "done";';
      const runId = await asked(board, code);
      expect(await board.approve(runId)).toMatchObject({ refused: false, status: 'awaiting_approval' });
      expect(await board.posts()).toEqual(['post first']);
      // The second resume runs the code from the top: the first post comes from the journal.
      expect(await board.approve(runId)).toMatchObject({
        refused: false,
        status: 'completed',
        result: 'done',
      });
      expect(await board.posts()).toEqual(['post first', 'post second']);
    }, 60_000);
  });
}

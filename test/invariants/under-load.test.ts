/**
 * The invariants under load (issue #20, "Under load"): four `hub serve --stdio` processes and one
 * `hub serve --http` on one hub, 200 runs that each post once and so ask, decisions interleaved
 * from the terminal (`hub approve`) and the approval page, and one stdio process killed with
 * SIGKILL in the middle, its runs finished from another process.
 *
 * | Under load                          | Held                                                        |
 * | ----------------------------------- | ----------------------------------------------------------- |
 * | every run, the crashed one's too    | ends in a defined state: completed, or failed saying why    |
 * | every post                          | reaches the board at most once; exactly once when completed |
 * | nothing lost                        | every run the model started is known to the hub at the end  |
 *
 * How long each operation takes under this load is `npm run bench`'s (bench/load.bench.ts), never
 * an assertion here.
 */
import { expect, it } from 'vitest';
import { runLoad } from './load.ts';

const RUNS = 200;
const PER_LANE = 2;

it('200 runs over five processes of one hub, one killed midway: each ends defined, no post twice, none lost', async () => {
  const report = await runLoad({ runs: RUNS, stdio: 4, perLane: PER_LANE, crashAfter: RUNS / 2 });
  expect(report.crashed).toBe(true);
  expect(report.ends).toHaveLength(RUNS);

  const undefinedEnds = report.ends.filter(
    (end) => end.status !== 'completed' && !(end.status === 'failed' && end.errorCode === 'outcome_unknown'),
  );
  expect(undefinedEnds, report.stderr().slice(-4000)).toEqual([]);

  for (const end of report.ends) {
    const posts = report.posts.get(end.index) ?? 0;
    if (end.status === 'completed') {
      expect(end.result).toBe(end.index);
      expect(posts, `run ${end.index} (${end.runId})`).toBe(1);
    } else expect(posts, `run ${end.index} (${end.runId})`).toBeLessThanOrEqual(1);
  }
  expect(new Set(report.ends.map((end) => end.runId)).size).toBe(RUNS);
  for (const end of report.ends) expect(report.known.get(end.runId), end.runId).toBe(end.status);
  // A run whose process died before it answered was never known to the model, which asked again
  // elsewhere: at most the killed lane's in-flight runs, each still waiting or running, which the
  // sweep ends (expired, or failed as abandoned) once a request may no longer wait.
  const told = new Set(report.ends.map((end) => end.runId));
  const orphans = [...report.known].filter(([id]) => !told.has(id));
  expect(orphans.length).toBeLessThanOrEqual(PER_LANE);
  for (const [, status] of orphans) expect(['running', 'awaiting_approval']).toContain(status);
  // The load exercised what it claims: both ways to decide, and runs moved off the killed process.
  expect(report.timings['approve (page)'].length).toBeGreaterThan(0);
  expect(report.timings['approve (terminal)'].length).toBeGreaterThan(0);
}, 600_000);

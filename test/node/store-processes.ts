/**
 * A child process for the multi-process test: opens the hub at CAPABILITIES_HOME the way
 * `serve --stdio` will, then creates runs and journals their calls as fast as it can.
 * argv: <worker name> <runs>
 */
import { homePaths } from '../../local/home.ts';
import { initHub, openLocalHub } from '../../local/local-hub.ts';

const [name = 'w', count = '20'] = process.argv.slice(2);
const paths = homePaths();
initHub(paths, Date.now());
const hub = openLocalHub(paths, Date.now());
const t0 = 1_800_000_000_000;
for (let i = 0; i < Number(count); i++) {
  const runId = `${name}_${i}`;
  hub.store.createRun({
    id: runId,
    profile: 'default',
    status: 'running',
    code: 'return 1',
    seed: 's',
    clockOrigin: t0,
    attempts: 1,
    logs: [],
    notices: [],
    createdAt: t0 + i,
    updatedAt: t0 + i,
  });
  for (let seq = 0; seq < 3; seq++) {
    hub.store.appendJournal({
      runId,
      seq,
      address: 'linear.create_issue',
      connection: null,
      argsDigest: 'a'.repeat(64),
      decision: { effect: 'allow', by: 'policy', reason: 'test' },
      startedAt: t0,
    });
    hub.store.settleJournal(runId, seq, { ok: true, value: seq, ms: 1 }, t0);
  }
  hub.store.updateRun(runId, { status: 'completed', updatedAt: t0 + i + 1 });
}
hub.close();
process.stdout.write(JSON.stringify({ hubId: hub.hubId }));

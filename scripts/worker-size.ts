/**
 * `npm run worker:size` (and `.ci/run`): bundles the hosted hub as `wrangler deploy` would
 * (`--dry-run`, nothing uploaded) and says its size against Cloudflare's limits on a Worker's
 * compressed size: 3 MiB on the Workers Free plan, 10 MiB on Paid (developers.cloudflare.com/
 * workers/platform/limits, the strictest figures it has given). Exits 1 past the Free limit,
 * so the hub stays deployable by anyone with a Cloudflare account.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const FREE_KIB = 3 * 1024;
const PAID_KIB = 10 * 1024;

const out = mkdtempSync(join(tmpdir(), 'capabilities-worker-'));
try {
  const dry = spawnSync('wrangler', ['deploy', '--dry-run', '--outdir', out], {
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  });
  const said = `${dry.stdout}\n${dry.stderr}`;
  const size = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(said);
  if (dry.status !== 0 || !size) {
    console.error(`wrangler deploy --dry-run failed:\n${said}`);
    process.exit(1);
  }
  const [total, gzip] = [Number(size[1]), Number(size[2])];
  const share = (limit: number) => `${Math.round((gzip / limit) * 100)}%`;
  console.log(
    `Worker: ${total.toFixed(0)} KiB, ${gzip.toFixed(0)} KiB gzipped: ${share(FREE_KIB)} of the Workers Free plan's 3 MiB, ${share(PAID_KIB)} of the Paid plan's 10 MiB.`,
  );
  if (gzip > FREE_KIB) {
    console.error('The Worker is over the Workers Free plan limit: make it smaller before it lands.');
    process.exit(1);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}

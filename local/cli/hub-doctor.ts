/**
 * `capabilities hub doctor`: diagnoses the home, the store, the token and the keychain, then
 * reaches each source. A check's name, detail and fix are one inert line each (engine/inert.ts):
 * a failing source's detail quotes its stderr, which must not pass for a check of ours.
 */
import type { Command } from 'commander';
import { inertLine } from '../../engine/inert.ts';
import { outputOf } from './hub-action.ts';

const MARK = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' } as const;

export function registerDoctor(hub: Command): void {
  hub
    .command('doctor')
    .description('Check the hub: file modes, hub.json, the store schema, the token file and the keychain')
    .action(async (_options: object, command: Command) => {
      const [{ homePaths }, { isHealthy, runDoctor }] = await Promise.all([
        import('../home.ts'),
        import('../doctor.ts'),
      ]);
      const paths = homePaths();
      const checks = runDoctor(paths);
      if (isHealthy(checks)) {
        const [{ sourceChecks }, { readFileSync }] = await Promise.all([
          import('../doctor-sources.ts'),
          import('node:fs'),
        ]);
        const { version } = JSON.parse(
          readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
        ) as {
          version: string;
        };
        checks.push(...(await sourceChecks(paths, version)));
      }
      const healthy = isHealthy(checks);
      const text = checks
        .map(
          (c) =>
            `${MARK[c.level]}  ${inertLine(c.name)}: ${inertLine(c.detail)}${c.fix ? `\n        fix: ${inertLine(c.fix)}` : ''}`,
        )
        .join('\n');
      outputOf(command).result(
        { healthy, checks },
        `${text}\n${healthy ? 'Healthy.' : 'Not healthy: see the fixes above.'}`,
      );
      if (!healthy) process.exitCode = 1;
    });
}

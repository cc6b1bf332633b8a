/**
 * `capabilities hub doctor`: diagnoses the home, the store, the token and the keychain, the
 * agents' `capabilities` entries (local/doctor-entries.ts), then reaches each source. A check's
 * name, detail and fix are one inert line each (engine/inert.ts): a failing source's detail
 * quotes its stderr, which must not pass for a check of ours.
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
      const { entryChecks } = await import('../doctor-entries.ts');
      checks.push(...entryChecks());
      if (isHealthy(checks)) {
        const [{ sourceChecks }, { VERSION }] = await Promise.all([
          import('../doctor-sources.ts'),
          import('../package-files.ts'),
        ]);
        checks.push(...(await sourceChecks(paths, VERSION)));
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

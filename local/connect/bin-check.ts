/**
 * The check before connect writes anything: the CLI every entry will launch exists at its
 * absolute path, may be executed, and answers `--version`. An entry naming a CLI that moved
 * would leave every harness with a server that fails to start.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { HubError } from '../../engine/errors.ts';

/** Returns the version `bin --version` printed, or throws what is wrong with `bin`. */
export function checkBin(bin: string): string {
  const fix = 'run `hub connect` with the bin/capabilities of the checkout you mean to use';
  if (!isAbsolute(bin)) throw new HubError('invalid_input', `${bin} is not an absolute path; ${fix}`);
  try {
    if (!statSync(bin).isFile()) throw new Error('not a file');
    accessSync(bin, constants.X_OK);
  } catch (error) {
    const why =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'does not exist (moved?)'
        : 'is not an executable file';
    throw new HubError('not_found', `${bin} ${why}; nothing was written. ${fix}`);
  }
  const run = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  const version = run.stdout?.trim() ?? '';
  if (run.error || run.status !== 0 || version === '') {
    const why = run.error?.message ?? (run.stderr?.trim().split('\n').at(-1) || `exit ${run.status}`);
    throw new HubError(
      'unavailable',
      `${bin} --version did not answer (${why}); nothing was written. ${fix}`,
    );
  }
  return version;
}

/**
 * What connect checks before it writes anything (local/package-files.ts says how this
 * capabilities is started again): the entry every harness will launch starts this very
 * capabilities. The installed package's Node and script, or a checkout's bin/capabilities, must
 * answer `--version` with this version; a pinned `npx` line needs npx on PATH (the package
 * itself is fetched when an agent first starts it). A checkout is connected only when the
 * person asks for it: an entry into a checkout breaks when the checkout moves or goes.
 */
import { spawnSync } from 'node:child_process';
import { HubError } from '../../engine/errors.ts';
import { type Launcher, PACKAGE_NAME, VERSION } from '../package-files.ts';

/** The launcher, once it is known to start this capabilities; throws what is wrong otherwise. */
export function checkLaunch(launch: Launcher, options: { checkout: boolean }): Launcher {
  if (launch.kind !== 'checkout' && options.checkout) {
    throw new HubError(
      'invalid_input',
      '--checkout connects agents to a checkout, and this capabilities is the installed package; leave it out.',
    );
  }
  if (launch.kind === 'checkout' && !options.checkout) {
    throw new HubError(
      'invalid_input',
      `this capabilities runs from a checkout (${launch.checkout}), and an entry naming it stops working when the checkout moves or goes; nothing was written. ` +
        `Install the package and connect with it: \`npm install -g ${PACKAGE_NAME}\` (from this checkout: \`npm pack\`, then \`npm install -g ./${tarballName()}\`), then \`capabilities hub connect\`. ` +
        'To connect agents to this checkout while you develop it, pass --checkout.',
    );
  }
  if (launch.kind === 'npx') {
    const npx = spawnSync('npx', ['--version'], { encoding: 'utf8', timeout: 30_000 });
    if (npx.error || npx.status !== 0) {
      throw new HubError(
        'unavailable',
        `the entry would start capabilities with npx, which does not run here (${npx.error?.message ?? `exit ${npx.status}`}); nothing was written. ` +
          `Install the package instead: \`npm install -g ${PACKAGE_NAME}@${VERSION}\`, then \`capabilities hub connect\`.`,
      );
    }
    return launch;
  }
  const line = [launch.command, ...launch.args].join(' ');
  const run = spawnSync(launch.command, [...launch.args, '--version'], { encoding: 'utf8', timeout: 30_000 });
  const answered = run.stdout?.trim() ?? '';
  if (run.error || run.status !== 0 || answered !== VERSION) {
    const why =
      run.error?.message ??
      (run.status !== 0
        ? run.stderr?.trim().split('\n').at(-1) || `exit ${run.status}`
        : `it says ${answered || 'nothing'}, this is ${VERSION}`);
    throw new HubError(
      'unavailable',
      `\`${line} --version\` does not answer as this capabilities (${why}); nothing was written. Run \`hub connect\` with the capabilities you mean agents to use.`,
    );
  }
  return launch;
}

/** What `npm pack` names this package's tarball: `capabilities-sh-cli-0.1.0.tgz`. */
function tarballName(): string {
  return `${PACKAGE_NAME.replace(/^@/, '').replace('/', '-')}-${VERSION}.tgz`;
}

/**
 * `capabilities hub login [--url <hosted hub>]` and `hub logout`: signing this machine's CLI in to
 * a hosted hub (local/hosted/sign-in.ts) and out again. Both need the local hub's home (hosted.json
 * lives there, and its secret store keeps the tokens) and never create it: a missing hub is an
 * error that names `capabilities hub init`. After signing in, the hub's status says whose hub it
 * is; a hub without that route yet is signed in to all the same.
 */
import type { Command } from 'commander';
import { inertLine } from '../../engine/inert.ts';
import type { SecretStore } from '../../engine/secrets/secret-store.ts';
import type { HomePaths } from '../home.ts';
import { DEFAULT_HOSTED_URL, HOSTED_PATHS } from '../hosted/hosted-api.ts';
import type { HostedFile } from '../hosted/hosted-state.ts';
import { outputOf } from './hub-action.ts';
import type { Output } from './output.ts';

export function registerHosted(hub: Command): void {
  hub
    .command('login')
    .description('Sign in to a hosted hub in your browser (the CLI keeps its tokens in your keychain)')
    .option('--url <url>', 'the hosted hub', DEFAULT_HOSTED_URL)
    .action(async (options: { url: string }, command: Command) => {
      const out = outputOf(command);
      const { hostedOrigin, signIn } = await import('../hosted/sign-in.ts');
      const url = hostedOrigin(options.url);
      const home = await openHome(out);
      const { opensPages } = await import('../pages/page-opener.ts');
      // Like the dashboard: CAPABILITIES_OPEN_PAGES=0 (or hub.json's openPages) keeps the browser
      // closed, and the address is printed instead.
      const file = await signIn(url, { ...home.deps, openBrowser: opensPages(home.openPages) });
      const login = await learnLogin(home.paths, file, home.deps.secrets);
      out.result(
        { url, ...(login === undefined ? {} : { login }) },
        login === undefined ? `Signed in to ${url}` : `Signed in to ${url} as ${inertLine(login)}`,
      );
    });

  hub
    .command('logout')
    .description('Sign out of the hosted hub: revoke the CLI’s tokens there and forget them here')
    .action(async (_options: object, command: Command) => {
      const out = outputOf(command);
      const home = await openHome(out);
      const { signOut } = await import('../hosted/sign-in.ts');
      const done = await signOut(home.deps);
      if (!done.signedIn) {
        out.result({ signedIn: false }, 'Not signed in to a hosted hub; nothing to do.');
        return;
      }
      out.result(
        { url: done.url, revoked: done.revoked, ...(done.revoked ? {} : { reason: done.reason }) },
        done.revoked
          ? `Signed out of ${done.url}; its tokens are revoked and forgotten here.`
          : `Signed out here, but could not revoke the sign-in at ${done.url} (${done.reason}); its tokens stay valid until they expire.`,
      );
    });
}

/** The home as login and logout need it, or the error that says to create the hub first. */
async function openHome(out: Output) {
  const [{ homePaths, readHubFile }, { openSecretStore }] = await Promise.all([
    import('../home.ts'),
    import('../secret-store.ts'),
  ]);
  const paths = homePaths();
  // Never a hub the person did not ask for: a missing hub.json names `capabilities hub init`.
  const hubFile = readHubFile(paths.hubFile);
  // Opened on first use: a sign-in that fails before it keeps anything says nothing about the store.
  let opened: SecretStore | undefined;
  const open = () => {
    opened ??= openSecretStore(paths.envFile, (text) => out.note(text));
    return opened;
  };
  const secrets: SecretStore = {
    get where() {
      return open().where;
    },
    get: (key) => open().get(key),
    set: (key, value) => open().set(key, value),
    delete: (key) => open().delete(key),
  };
  return {
    paths,
    openPages: hubFile.settings.openPages,
    deps: { paths, secrets, env: process.env, note: (text: string) => out.note(text) },
  };
}

/** The login the hub says the sign-in belongs to, kept in hosted.json; undefined when it does not say. */
async function learnLogin(
  paths: HomePaths,
  file: HostedFile,
  secrets: SecretStore,
): Promise<string | undefined> {
  const [{ openHostedClient }, { writeHostedFile }, { HostedStatus }] = await Promise.all([
    import('../hosted/hosted-client.ts'),
    import('../hosted/hosted-state.ts'),
    import('../../engine/contracts/configuration.ts'),
  ]);
  try {
    const client = await openHostedClient(paths, process.env, { secrets });
    const status = await client.get(HOSTED_PATHS.status, HostedStatus);
    if (status.login === undefined) return undefined;
    writeHostedFile(paths.hostedFile, { ...file, login: status.login });
    return status.login;
  } catch {
    // A hub without the status route (or not answering it now): signed in all the same.
    return undefined;
  }
}

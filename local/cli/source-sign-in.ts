/**
 * The CLI's side of signing the hub in to a source that asks for OAuth, for `hub add` and
 * `hub auth`: the person's browser (opened as hub.json's `openPages` and CAPABILITIES_OPEN_PAGES
 * say), a pre-registered client's secret read at a masked prompt (never an argument), and the
 * grant as credentials for listing the source's tools before anything is stored.
 */
import type { Credentials } from '../../engine/sources/connector.ts';
import { deliver } from '../../engine/sources/connector.ts';
import { grantSecretValues, type OAuthGrant } from '../../engine/sources/oauth-grant.ts';
import { homePaths, readHubFile } from '../home.ts';
import { challengeOf, signInToSource } from '../oauth/upstream-sign-in.ts';
import { opensPages } from '../pages/page-opener.ts';
import type { Output } from './output.ts';
import { readSecret } from './read-secret.ts';

export interface SignInOptions {
  clientId?: string | undefined;
  /** Ask for the pre-registered client's secret at a masked prompt. */
  clientSecret?: boolean | undefined;
}

/** Signs in to the source at `url` in the person's browser; `again` is the command that starts over. */
export async function signInFromCli(
  out: Output,
  url: string,
  options: SignInOptions,
  again: string,
): Promise<OAuthGrant> {
  const clientSecret =
    options.clientId && options.clientSecret
      ? await readSecret(out, `Client secret of ${options.clientId}`)
      : undefined;
  const resourceMetadataUrl = await challengeOf(url);
  return signInToSource({
    url,
    resourceMetadataUrl,
    clientId: options.clientId,
    clientSecret,
    again,
    env: process.env,
    openBrowser: opensPages(readHubFile(homePaths().hubFile).settings.openPages),
    note: (text) => out.note(text),
  });
}

/** The grant as credentials for one listing: its access token as a bearer, every token scrubbed. */
export function grantCredentials(grant: OAuthGrant): Credentials {
  const credentials = deliver('default', [{ delivery: { kind: 'oauth' }, value: grant.access_token }]);
  return {
    ...credentials,
    secrets: [...credentials.secrets, ...grantSecretValues(grant), JSON.stringify(grant)],
  };
}

/**
 * The CLI's side of signing the hub in to a source that asks for OAuth, for `hub add` and
 * `hub auth`: the person's browser (opened as hub.json's `openPages` and CAPABILITIES_OPEN_PAGES
 * say), a pre-registered client's secret read at a masked prompt (never an argument), and the
 * grant as credentials for listing the source's tools before anything is stored. An OpenAPI
 * source's API signs in through the flow its document names instead (api-sign-in.ts).
 */

import type { Credentials } from '../../engine/connectors/connector.ts';
import { deliver } from '../../engine/connectors/connector.ts';
import type { OAuthFlowAsk } from '../../engine/connectors/openapi/security.ts';
import { grantSecretValues, type OAuthGrant } from '../../engine/secrets/oauth-grant.ts';
import { homePaths, readHubFile } from '../home.ts';
import { challengeOf, type SignInPerson, signInToSource } from '../oauth/upstream-sign-in.ts';
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
  const person = await personSide(out, options, again);
  return signInToSource({ ...person, url, resourceMetadataUrl: await challengeOf(url) });
}

/**
 * Signs in to an OpenAPI source's API through the OAuth 2 flow its document names; `serverUrl`
 * is the API the tokens are for.
 */
export async function apiSignInFromCli(
  out: Output,
  flow: OAuthFlowAsk,
  serverUrl: string,
  options: SignInOptions,
  again: string,
): Promise<OAuthGrant> {
  const person = await personSide(out, options, again);
  const { signInToApi } = await import('../oauth/api-sign-in.ts');
  return signInToApi({ ...person, flow, serverUrl });
}

/** The person's side of a sign-in from the CLI: the client they named (its secret read masked), their browser. */
async function personSide(out: Output, options: SignInOptions, again: string): Promise<SignInPerson> {
  const clientSecret =
    options.clientId && options.clientSecret
      ? await readSecret(out, `Client secret of ${options.clientId}`)
      : undefined;
  return {
    clientId: options.clientId,
    clientSecret,
    again,
    env: process.env,
    openBrowser: opensPages(readHubFile(homePaths().hubFile).settings.openPages),
    note: (text) => out.note(text),
  };
}

/** The grant as credentials for one listing: its access token as a bearer, every token scrubbed. */
export function grantCredentials(grant: OAuthGrant): Credentials {
  const credentials = deliver('default', [{ delivery: { kind: 'oauth' }, value: grant.access_token }]);
  return {
    ...credentials,
    secrets: [...credentials.secrets, ...grantSecretValues(grant), JSON.stringify(grant)],
  };
}

/**
 * An OpenAPI document's credentials on the review of its draft (source-add-page.tsx), inside the
 * Confirm form: each security scheme its operations use, as the document names it, and masked
 * fields for the first a person can type (`keyAsk`: an API key in a header, the query or a
 * cookie, a bearer token, or HTTP basic's user and password), kept on Confirm as the source's
 * `default` connection (engine/sources/source-drafts.ts). The fields are always empty: no page
 * holds a key. An OAuth 2 sign-in runs in a browser the hub opens and waits on, which a dashboard
 * page cannot do: the page says so, and how to sign in on this host (`HostWording.signInToApi`).
 * A scheme the hub does not support is named, with what that means for the calls.
 */
import type { CredentialAsk } from '../engine/contracts/connections.ts';
import { keyAsk } from '../engine/sources/source-drafts.ts';
import { line } from './shown.ts';

export interface DraftCredentialsProps {
  asks: readonly CredentialAsk[];
  /** Where calls and the key go (the draft's allowed hosts). */
  hosts: readonly string[];
  /** The host's sentence on signing in to the API (HostWording.signInToApi). */
  signIn: string;
}

/** The form field names of the key (or HTTP basic's user and password). */
export const KEY_FIELDS = { value: 'key', user: 'user', password: 'password' } as const;

export function DraftCredentials(props: DraftCredentialsProps) {
  const { asks } = props;
  const typed = keyAsk(asks);
  const oauth = asks.some((ask) => ask.oauth !== undefined);
  const where = line(props.hosts.join(', '));
  return (
    <fieldset class="group">
      <legend>Credentials the document asks for</legend>
      {asks.length === 0 ? <p>None: its operations name no security scheme.</p> : null}
      <ul>
        {asks.map((ask) => (
          <li>
            {line(ask.scheme)}: {line(ask.label)}
            {ask === typed
              ? ' (entered below)'
              : ask.oauth
                ? ' (a sign-in: see below)'
                : ask.delivery
                  ? ' (not entered here: this page takes one key)'
                  : '; its operations are added and called without it'}
          </li>
        ))}
      </ul>
      {typed?.basic ? (
        <>
          <label for="user">User for {line(typed.scheme)}</label>
          <input id="user" name={KEY_FIELDS.user} type="text" autocomplete="off" />
          <label for="password">Password for {line(typed.scheme)}</label>
          <input id="password" name={KEY_FIELDS.password} type="password" autocomplete="off" />
        </>
      ) : typed ? (
        <>
          <label for="key">
            {line(typed.scheme)}: {line(typed.label)}
          </label>
          <input id="key" name={KEY_FIELDS.value} type="password" autocomplete="off" />
        </>
      ) : null}
      {typed ? (
        <p class="muted">
          Optional: kept in the hub’s secret store as the default connection and sent only to {where}. No page
          shows it again. Empty: the source is added without it.
        </p>
      ) : null}
      {oauth ? (
        <p>
          The dashboard cannot run this sign-in (it opens the API’s sign-in page in a browser and waits for
          its answer). {line(props.signIn)}
        </p>
      ) : null}
    </fieldset>
  );
}

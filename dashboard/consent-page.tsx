/**
 * The consent page of the hosted hub's `/authorize` (worker/consent.ts): an MCP client asks to
 * reach the signed-in person's hub. It names the client (its name, and whether that name is
 * verified: a client ID metadata document's domain, else self-asserted), the host its tokens
 * go to, a warning when that host is this computer, what the client will reach (plainly, when it
 * asks to change the hub's configuration), and who is signed in; Allow and Deny post the
 * library's one-time handle, nothing else. Everything from the client is escaped by Hono's JSX.
 */
import { Layout } from './layout.tsx';

/**
 * What the page shows of the request, as the OAuth library describes it (its
 * `ConsentDescription`, which this shape matches): the dashboard imports no runtime's library.
 */
export interface ConsentDetails {
  /** The client's name, or its client id when it gave none; self-asserted unless `clientDomain` is set. */
  clientName: string;
  /** A client ID metadata document's domain: a name the client proved it controls. */
  clientDomain?: string | undefined;
  /** Where the tokens will be sent. */
  redirectHost: string;
  /** The redirect goes to an app on this computer. */
  redirectIsLoopback: boolean;
  /** The app asks for `hub:configure`: to change the hub's configuration (`capabilities hub push`). */
  configure?: boolean | undefined;
}

export function ConsentPage(props: {
  details: ConsentDetails;
  handle: string;
  login: string;
  action: string;
}) {
  const { details, handle, login, action } = props;
  return (
    <Layout title={`Allow ${details.clientName} to reach your hub?`}>
      <h1>Allow {details.clientName} to reach your hub?</h1>
      <p>
        {details.clientDomain ? (
          <>
            Published by <strong>{details.clientDomain}</strong>.
          </>
        ) : (
          'This app registered itself: its name is not verified.'
        )}{' '}
        Its access will be sent to <strong>{details.redirectHost}</strong>.
      </p>
      {details.redirectIsLoopback ? (
        <p role="alert">
          <strong>This sends access to an app on your computer.</strong> Continue only if you just started
          connecting from it.
        </p>
      ) : null}
      <p>
        It will reach every source of your hub through <code>search</code>, <code>describe</code> and{' '}
        <code>execute</code>, as you (<strong>{login}</strong>). Reads run; anything that writes still waits
        for you in your dashboard. You can revoke it later.
      </p>
      {details.configure ? (
        <p role="alert">
          <strong>
            It also asks to change your hub's configuration: its sources, policies and credentials.
          </strong>{' '}
          Allow this only for the <code>capabilities</code> command line you just ran <code>hub login</code>{' '}
          in.
        </p>
      ) : null}
      <form method="post" action={action}>
        <input type="hidden" name="handle" value={handle} />
        <fieldset>
          <button type="submit" name="decision" value="approve">
            Allow
          </button>
          <button type="submit" name="decision" value="deny">
            Deny
          </button>
        </fieldset>
      </form>
    </Layout>
  );
}

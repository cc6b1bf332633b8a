/**
 * Entering a credential for one of a source's connections, on the source's page: the connection
 * (default `default`), how the secret reaches the server (a header, `Authorization: Bearer` by
 * default, for a remote server or an API; an environment variable for a stdio one) and the secret itself
 * in a masked field. The secret goes to the hub's secret store (`Sources.saveCredential`) and is
 * never shown again; the page lists connections by name and delivery only. This is the person's
 * way to enter or replace a credential where there is no terminal (the hosted hub).
 */
import type { Source } from '../engine/contracts/sources.ts';

export function ConnectionForm(props: { source: Source; csrf: string; action: string }) {
  const remote = props.source.kind !== 'mcp-stdio';
  return (
    <form method="post" action={props.action} autocomplete="off">
      <input type="hidden" name="csrf" value={props.csrf} />
      <label for="connection">Connection</label>
      <input id="connection" name="connection" value="default" required pattern="[a-z][a-z0-9_-]{0,39}" />
      {remote ? (
        <>
          <label for="header">Sent in the header</label>
          <input id="header" name="header" value="Authorization" required pattern="[A-Za-z0-9_.\-]+" />
          <label for="scheme">Before the value</label>
          <select id="scheme" name="scheme">
            <option value="Bearer" selected>
              Bearer
            </option>
            <option value="">nothing (the value alone)</option>
          </select>
        </>
      ) : (
        <>
          <label for="env">Given to the server as the environment variable</label>
          <input id="env" name="env" required pattern="[A-Za-z_][A-Za-z0-9_]*" />
        </>
      )}
      <label for="secret">Secret</label>
      <input id="secret" name="secret" type="password" required autocomplete="off" />
      <p class="muted">
        Kept in the hub's secret store and never shown again; it replaces this connection's earlier one.
      </p>
      <p>
        <button type="submit">Keep this credential</button>
      </p>
    </form>
  );
}

/**
 * A stdio server's answer that is no JSON-RPC message (`{"id": 3, "result": 42}`): the SDK's
 * read buffer drops the line and reports only a schema error to the transport's `onerror`, so
 * the call it answered would wait out its whole timeout and then blame the server for silence.
 * With one call waiting on the session, that call is the one answered: it fails at once, saying
 * what the server sent. With several waiting, which one it answered is unknown, so none is
 * blamed and each waits as before. A line that is not JSON at all (log noise on stdout) is
 * skipped by the SDK without an error and changes nothing here.
 */
import { HubError } from '../errors.ts';

/** The calls waiting for their answer on one session, each with the controller that can fail it. */
export interface MalformedWatch {
  waiting: Set<AbortController>;
}

/** Whether the transport's error is the schema check of a line that parsed as JSON. */
function isMalformedMessage(error: Error): boolean {
  return error.name === 'ZodError' || Array.isArray((error as { issues?: unknown }).issues);
}

/** For the transport's `onerror`: fails the one waiting call when a malformed message arrives. */
export function noteMalformed(session: MalformedWatch, error: Error, namespace: string): void {
  if (!isMalformedMessage(error) || session.waiting.size !== 1) return;
  const [only] = session.waiting;
  only?.abort(
    new HubError(
      'unavailable',
      `the server for "${namespace}" answered with a message that is not valid MCP (JSON-RPC: a result must be an object); ` +
        'the hub dropped it. The server is broken: tell its maintainer, or remove the source',
    ),
  );
}

/** The error a call failed with when `noteMalformed` ended it; undefined otherwise. */
export function malformedError(controller: AbortController): HubError | undefined {
  const reason: unknown = controller.signal.aborted ? controller.signal.reason : undefined;
  return reason instanceof HubError ? reason : undefined;
}

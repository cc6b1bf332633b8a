/**
 * A stdio server's answer whose result or error is not what JSON-RPC allows
 * (`{"jsonrpc":"2.0","id":3,"result":42}`): the SDK's read buffer drops the line and reports only
 * a schema error to the transport's `onerror`, so the call it answered would wait out its whole
 * timeout and then blame the server for silence. Only an answer-shaped line counts: its
 * `jsonrpc` and `id` are right and only its `result` or `error` is wrong. With one call waiting
 * on the session, that call is the one answered: it fails at once, saying so. With several
 * waiting, which one it answered is unknown, so none is blamed and each waits as before.
 * Anything else on stdout changes nothing here: a line that is not JSON (the SDK skips it), and
 * JSON that is no answer (a log line such as `{"level":30}`, a bare `42`, a malformed
 * notification), which the SDK reports too. The schema error does not carry the id, so a late
 * malformed answer to a call that already timed out would fail the one call waiting then.
 */
import { HubError } from '../errors.ts';

/** The calls waiting for their answer on one session, each with the controller that can fail it. */
export interface MalformedWatch {
  waiting: Set<AbortController>;
}

/** A schema issue as zod reports it: where, and for a union, each branch's own issues. */
interface Issue {
  code?: string;
  path?: readonly PropertyKey[];
  errors?: readonly (readonly Issue[])[];
}

/** Every issue is inside the answer's `result` or `error`: the envelope (`jsonrpc`, `id`) was right. */
const insideAnswer = (issues: readonly Issue[]): boolean =>
  issues.length > 0 && issues.every((issue) => issue.path?.[0] === 'result' || issue.path?.[0] === 'error');

/**
 * Whether the transport's error is the schema check of a line shaped as an answer to a request:
 * the message's own issues, or one branch of the message union's, are all inside its result or
 * error.
 */
function isMalformedAnswer(error: Error): boolean {
  const issues = (error as { issues?: unknown }).issues;
  if (!Array.isArray(issues)) return false;
  const list = issues as readonly Issue[];
  return (
    insideAnswer(list) ||
    list.some(
      (issue) =>
        issue.code === 'invalid_union' &&
        (issue.path?.length ?? 0) === 0 &&
        (issue.errors ?? []).some(insideAnswer),
    )
  );
}

/** For the transport's `onerror`: fails the one waiting call when a malformed message arrives. */
export function noteMalformed(session: MalformedWatch, error: Error, namespace: string): void {
  if (!isMalformedAnswer(error) || session.waiting.size !== 1) return;
  const [only] = session.waiting;
  only?.abort(
    new HubError(
      'unavailable',
      `the server for "${namespace}" answered with a message that is not valid MCP (its result or error is not what JSON-RPC allows); ` +
        'the hub dropped it. The server is broken: tell its maintainer, or remove the source',
      { delivery: 'answered' },
    ),
  );
}

/** The error a call failed with when `noteMalformed` ended it; undefined otherwise. */
export function malformedError(controller: AbortController): HubError | undefined {
  const reason: unknown = controller.signal.aborted ? controller.signal.reason : undefined;
  return reason instanceof HubError ? reason : undefined;
}

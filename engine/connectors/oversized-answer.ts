/**
 * A stdio server's answer over the SDK's read buffer cap (result handles, I7): the transport
 * drops the message and closes. The server did not crash, it answered too much, so the close is
 * the hub's and the source stays healthy. The call it answered fails `result_too_large` (a
 * HubError `limit`); with other calls waiting on the same connection, which of them it answered
 * is unknown, so none is blamed: each fails `outcome_unknown` (each was sent; its answer was lost).
 */
import { HubError } from '../errors.ts';

/** What the SDK's stdio read buffer says when a message passes its cap. */
const OVERSIZED = /ReadBuffer exceeded maximum size of (\d+) bytes/;

/** What a session keeps of an oversized answer. */
export interface OversizeWatch {
  /** Set before the hub closes the session, so the close is not taken for a crash. */
  closing: boolean;
  /** Calls waiting for their answer on this session now. */
  inFlight: number;
  /** The cap one message may take, once a bigger one closed the session. */
  oversized?: number;
  /** How many calls were waiting when it did. */
  waitingAtOversize?: number;
}

/** For the transport's `onerror`: marks the session when the error is an oversized message. */
export function noteOversized(session: OversizeWatch, error: Error): void {
  const cap = OVERSIZED.exec(error.message)?.[1];
  if (cap === undefined) return;
  session.oversized = Number(cap);
  session.waitingAtOversize = session.inFlight;
  session.closing = true;
}

/** The error a call failed with on a session an oversized answer closed; undefined otherwise. */
export function oversizedError(
  session: OversizeWatch,
  call: { namespace: string; tool: string; where: string },
  cause: unknown,
): HubError | undefined {
  if (session.oversized === undefined) return undefined;
  const server = `the server for "${call.namespace}"`;
  const cap = `the ${session.oversized}-byte cap one message may take`;
  if ((session.waitingAtOversize ?? 1) > 1) {
    return new HubError(
      'unavailable',
      `${server} lost the answer to ${call.tool}: another answer on the same connection was over ${cap}, and the hub dropped the connection; the next call starts a new one`,
      { cause, detail: call.where, delivery: 'unknown' },
    );
  }
  return new HubError(
    'limit',
    `${server} answered ${call.tool} with a message over ${cap}; the hub dropped it`,
    { detail: call.where, delivery: 'answered' },
  );
}

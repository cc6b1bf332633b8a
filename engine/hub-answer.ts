/**
 * A HubError across an RPC boundary (the Worker calling its HubObject): an answer is the value,
 * or the error's code, message and detail, so the caller throws the same HubError the engine did
 * and the model reads the same errors on either host. Anything else thrown is not an answer: it
 * crosses as the runtime's own error and becomes a generic internal one at the edge.
 */
import { HubError, type HubErrorCode } from './errors.ts';

/** An answer over RPC: the value, or the HubError it threw. */
export type HubAnswer<T> =
  | { ok: true; value: T }
  | { ok: false; code: HubErrorCode; message: string; detail?: string };

/** Runs `body` and answers its value, or the HubError it threw; rethrows anything else. */
export async function toAnswer<T>(body: () => T | Promise<T>): Promise<HubAnswer<T>> {
  try {
    return { ok: true, value: await body() };
  } catch (error) {
    if (!(error instanceof HubError)) throw error;
    const { code, message, detail } = error;
    return detail === undefined ? { ok: false, code, message } : { ok: false, code, message, detail };
  }
}

/** Turns an answer back into its value or its HubError, on the caller's side. */
export function unwrapAnswer<T>(answer: HubAnswer<T>): T {
  if (answer.ok) return answer.value;
  throw new HubError(
    answer.code,
    answer.message,
    answer.detail === undefined ? {} : { detail: answer.detail },
  );
}

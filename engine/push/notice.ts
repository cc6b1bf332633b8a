/**
 * What a person is told when a call waits for them, away from the hub (issue #37): the tool's
 * address, the connection, why it asks, and a short preview of the arguments, for a Web Push
 * notification and a webhook. It is a summary, never the decision's basis: the approval page
 * shows the whole preview, and the decision covers the call's whole arguments.
 *
 * Every string is scrubbed of the hub's secrets before anything is shortened (so a cut never
 * leaves part of a secret), long values keep only their ends, and the whole stays within
 * NOTICE_CHARS. Pure: the scrubbing is passed in.
 */

import { shorten } from '../approvals/args-preview.ts';
import type { PendingInput } from '../contracts/runs.ts';

/** The most characters of the arguments a notice shows. */
export const NOTICE_PREVIEW_CHARS = 160;
/** The longest string value a notice shows whole. */
const VALUE_CHARS = 40;
/** The longest reason a notice shows. */
const REASON_CHARS = 160;

export interface Notice {
  /** The pending input it is about: a notification's tag, one per waiting call. */
  pendingId: string;
  runId: string;
  address: string;
  connection: string | null;
  kind: PendingInput['kind'];
  reason: string;
  preview: string;
  title: string;
  body: string;
  /** The call's approval, a path on the hub's dashboard (behind the person's sign-in). */
  path: string;
}

/** The notice of `pending`, every string passed through `scrub` before it is shortened. */
export function noticeOf(pending: PendingInput, scrub: (text: string) => string): Notice {
  const address = scrub(pending.address);
  const connection = pending.connection === null ? null : scrub(pending.connection);
  const reason = cut(oneLine(scrub(pending.reason)), REASON_CHARS);
  const preview = previewOf(pending, scrub);
  const where = connection ? `${address} as ${connection}` : address;
  const title = pending.kind === 'approval' ? `Allow ${where}?` : `Sign in again for ${where}`;
  return {
    pendingId: pending.id,
    runId: pending.runId,
    address,
    connection,
    kind: pending.kind,
    reason,
    preview,
    title,
    body: preview ? `${reason}\n${preview}` : reason,
    path: `/runs/${encodeURIComponent(pending.runId)}`,
  };
}

/** The arguments in one short line: each string scrubbed, then shortened in its middle. */
function previewOf(pending: PendingInput, scrub: (text: string) => string): string {
  if (pending.kind !== 'approval') return '';
  let text: string;
  if (pending.args) {
    text = JSON.stringify(pending.args, (_key, value: unknown) =>
      typeof value === 'string' ? shorten(scrub(value), VALUE_CHARS) : value,
    );
  } else {
    text = oneLine(scrub(pending.argsPreview));
  }
  return cut(text, NOTICE_PREVIEW_CHARS);
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** `text` at most `chars` long, its tail cut and marked. */
function cut(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

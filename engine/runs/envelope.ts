/**
 * The execute envelope (spec: The MCP surface, execute) built from what the store holds of a
 * run: status, result or error, logs, the calls so far, pending inputs, notices (the run's, then
 * what the hub noticed of the calls' answers). Everything in
 * it has been scrubbed before it was stored; the budget cut happens here: result and logs
 * together fit in `inlineResultBytes`, the result first, with `truncated` flags saying what was cut.
 */
import { namespaceOf } from '../address.ts';
import type { ExecuteEnvelope } from '../contracts/envelope.ts';
import type { JournalEntry, PendingInput, Run } from '../contracts/runs.ts';
import type { HostWording } from '../wording.ts';

/** How the notice saying an attempt's logs were cut begins; it marks the envelope's logs cut. */
const LOGS_CUT = 'logs cut:';

/** The run's notice when an attempt logged more than its `logBytes` and the rest was dropped. */
export function logsCutNotice(logBytes: number): string {
  return `${LOGS_CUT} an attempt logged more than its ${logBytes} bytes, and the rest of its lines were dropped`;
}

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text).length;

/** `text` cut to at most `budget` UTF-8 bytes, on a character boundary. */
export function cutToBytes(text: string, budget: number): string {
  if (bytes(text) <= budget) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (bytes(text.slice(0, mid)) <= budget) low = mid;
    else high = mid - 1;
  }
  return text.slice(0, low);
}

export interface EnvelopeInput {
  run: Run;
  journal: readonly JournalEntry[];
  pending: readonly PendingInput[];
  inlineResultBytes: number;
  /** For a run another attempt is running: when to ask again. */
  retryAfterMs: number;
  /** How a person acts, in the host's words (deciding, adding a connection). */
  wording: HostWording;
}

export function buildEnvelope({
  run,
  journal,
  pending,
  inlineResultBytes,
  retryAfterMs,
  wording,
}: EnvelopeInput): ExecuteEnvelope {
  const status = envelopeStatus(run, pending);
  // A running run's calls in flight have not failed: only settled calls are reported.
  const reported = status === 'running' ? journal.filter((entry) => entry.outcome) : journal;
  const envelope: ExecuteEnvelope = {
    runId: run.id,
    status,
    calls: reported.map((entry) => ({
      address: entry.address,
      ok: entry.outcome?.ok === true,
      ms: entry.outcome?.ms ?? 0,
    })),
  };
  let budget = inlineResultBytes;
  const truncated: NonNullable<ExecuteEnvelope['truncated']> = {};
  if (run.status === 'completed' && run.result !== undefined) {
    const text = JSON.stringify(run.result);
    if (bytes(text) <= budget) {
      envelope.result = run.result;
      budget -= bytes(text);
    } else {
      envelope.result = `${cutToBytes(text, Math.max(0, budget - 3))}…`;
      truncated.result = true;
      budget = 0;
    }
  }
  if (run.error) envelope.error = run.error;
  if (run.logs.length > 0) {
    const kept: string[] = [];
    for (const line of run.logs) {
      const size = bytes(line) + 1;
      if (size > budget) {
        truncated.logs = true;
        break;
      }
      kept.push(line);
      budget -= size;
    }
    envelope.logs = kept;
  }
  if (run.notices.some((notice) => notice.startsWith(LOGS_CUT))) truncated.logs = true;
  if (truncated.result || truncated.logs) envelope.truncated = truncated;
  const waiting = envelope.status === 'awaiting_approval' || envelope.status === 'awaiting_connection';
  const open = waiting ? pending : [];
  if (open.length > 0) {
    envelope.pending = open.map((p) => {
      const namespace = namespaceOf(p.address);
      // A connection named is one whose sign-in no longer works (approvals/connection-wait.ts); none
      // named, the source has no connection to use.
      const signIn = p.kind === 'connection' && p.connection !== null ? p.connection : undefined;
      let message: string;
      if (p.kind === 'approval') {
        message = `A person must decide: ${wording.decideRun(run.id)}. Then call execute({ resume: "${run.id}" }).`;
      } else if (signIn !== undefined) {
        message = `A person must sign in again to connection ${namespace}/${signIn}: ${wording.signInAgain(namespace, signIn)}. Then resume.`;
      } else {
        message = `A person must add a connection for ${namespace}: ${wording.addConnection(namespace)}. Then resume.`;
      }
      return {
        id: p.id,
        kind: p.kind,
        address: p.address,
        summary: p.summary,
        message,
        ...(signIn === undefined ? {} : { connection: signIn }),
      };
    });
  }
  // What the hub noticed of a call's answer (one that broke its declared output schema) is said
  // once, after the run's own notices.
  const notices = [...run.notices];
  for (const entry of reported) {
    const notice = entry.outcome?.ok === true ? entry.outcome.notice : undefined;
    if (notice !== undefined && !notices.includes(notice)) notices.push(notice);
  }
  if (notices.length > 0) envelope.notices = notices;
  if (status === 'running') envelope.retryAfterMs = retryAfterMs;
  return envelope;
}

function envelopeStatus(run: Run, pending: readonly PendingInput[]): ExecuteEnvelope['status'] {
  switch (run.status) {
    case 'completed':
      return 'completed';
    case 'cancelled':
      return 'cancelled';
    case 'awaiting_input':
      return pending.some((p) => p.kind === 'connection') ? 'awaiting_connection' : 'awaiting_approval';
    case 'running':
      return 'running';
    case 'failed':
    case 'expired':
      return 'failed';
  }
}

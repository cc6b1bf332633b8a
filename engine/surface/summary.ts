/**
 * The one compact line of text that travels with every `execute` envelope (spec: The MCP
 * surface, execute). Clients that show the model only text content still learn what happened:
 * the status, the result as compact JSON (already cut to the inline budget by the envelope), the
 * error, what waits for a person and what to call next, plus logs and notices when there are any.
 * It is one line whatever the content: JSON escapes newlines, and messages have their whitespace
 * folded.
 *
 * It never holds a URL or a token: the approval path it names is the CLI's
 * `capabilities hub approve <runId>`, and the page (when there is one) is opened by the hub itself.
 */
import { namespaceOf } from '../address.ts';
import type { ExecuteEnvelope } from '../contracts/envelope.ts';
import { unreachable } from '../errors.ts';
import type { HostWording } from '../wording.ts';

const fold = (text: string) => text.replace(/\s+/g, ' ').trim();

/** `board.post` / `board.post and github.createIssue` / `a, b and c`. */
function listed(items: readonly string[]): string {
  const unique = [...new Set(items)];
  if (unique.length <= 1) return unique[0] ?? 'a call';
  return `${unique.slice(0, -1).join(', ')} and ${unique.at(-1)}`;
}

/** `memory.read_graph ok, board.post ×3 failed`: what already ran, for a run that stopped. */
function callsMade(calls: ExecuteEnvelope['calls']): string {
  const groups = new Map<string, number>();
  for (const call of calls) {
    const key = `${call.address} ${call.ok ? 'ok' : 'failed'}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const parts = [...groups].map(([key, n]) => {
    const [address, outcome] = key.split(' ');
    return n > 1 ? `${address} ×${n} ${outcome}` : key;
  });
  return parts.join(', ');
}

/**
 * What a call waiting for a connection needs of a person: a connection named must be signed in
 * again (its sign-in no longer works), a source with none named needs one added.
 */
function connectionWait(
  address: string | undefined,
  connection: string | undefined,
  wording: HostWording,
): string {
  const namespace = namespaceOf(address ?? '') || '<namespace>';
  if (connection === undefined) {
    return `${namespace} needs a connection added (${wording.addConnection(namespace)})`;
  }
  return `the connection ${namespace}/${connection} must be signed in again (${wording.signInAgain(namespace, connection)})`;
}

/**
 * What the model does next with a run that stopped: resume it with execute (code mode), or, for a
 * direct tool's one-call run, let the person's decision make the call (calling again would be
 * another run).
 */
type Next = 'resume' | 'direct';

function head(envelope: ExecuteEnvelope, wording: HostWording, next: Next = 'resume'): string {
  const { runId, status } = envelope;
  const resume =
    next === 'resume'
      ? `call execute({ "resume": "${runId}" })`
      : `leave it to them: the call is made once they decide, and its result is kept in run ${runId}; do not call the tool again for it`;
  switch (status) {
    case 'running': {
      const seconds = Math.max(1, Math.round((envelope.retryAfterMs ?? 5_000) / 1000));
      if (next === 'direct')
        return `${runId} running: another attempt is running this run right now; nothing failed.`;
      return `${runId} running: another attempt is running this run right now; nothing failed and no call is made twice. ${resume.charAt(0).toUpperCase()}${resume.slice(1)} again in ${seconds} seconds for its outcome.`;
    }
    case 'completed':
      return envelope.result === undefined
        ? `${runId} completed with no return value.`
        : `${runId} completed: ${JSON.stringify(envelope.result)}`;
    case 'failed': {
      const error = envelope.error;
      const text = error
        ? `${error.code}: ${fold(error.message)}${error.hint ? ` Hint: ${fold(error.hint)}` : ''}`
        : 'the run failed';
      const ran = envelope.calls.length > 0 ? ` Calls that ran: ${callsMade(envelope.calls)}.` : '';
      return `${runId} failed: ${text}${ran}`;
    }
    case 'awaiting_approval': {
      const waiting = (envelope.pending ?? []).map((p) => p.address ?? 'a call');
      const verb = new Set(waiting).size > 1 ? 'need' : 'needs';
      const decide =
        envelope.page === 'opened'
          ? `A page opened on the user's screen to decide; tell the user (they can also ${wording.decideRun(runId)})`
          : `Tell the user to ${wording.decideRun(runId)}`;
      return `${runId} awaiting_approval: ${listed(waiting)} ${verb} a person's decision. ${decide}, then ${resume}.`;
    }
    case 'awaiting_connection': {
      const waits = new Set(
        (envelope.pending ?? [])
          .filter((p) => p.kind === 'connection')
          .map((p) => connectionWait(p.address, p.connection, wording)),
      );
      const then = next === 'resume' ? resume : 'call the tool again';
      return `${runId} awaiting_connection: ${[...waits].join('; ') || 'a connection waits for the user'}. Tell the user, then ${then}.`;
    }
    case 'cancelled':
      return `${runId} cancelled.${envelope.calls.length > 0 ? ` Calls that ran: ${callsMade(envelope.calls)}.` : ''}`;
    default:
      return unreachable(status);
  }
}

/** The envelope as one line for the model: never a URL, never a token, never a line break. */
export function summaryLine(envelope: ExecuteEnvelope, wording: HostWording, next: Next = 'resume'): string {
  const parts = [head(envelope, wording, next)];
  if (envelope.logs && envelope.logs.length > 0) parts.push(`Logs: ${JSON.stringify(envelope.logs)}`);
  if (envelope.notices && envelope.notices.length > 0)
    parts.push(`Notices: ${JSON.stringify(envelope.notices)}`);
  const cut = Object.keys(envelope.truncated ?? {});
  if (cut.length > 0) parts.push(`(${cut.join(' and ')} cut to the inline budget; return less)`);
  return parts.join(' ');
}

/** The line a direct tool answers for its one-call run when it did not complete (direct-tools.ts). */
export const directSummaryLine = (envelope: ExecuteEnvelope, wording: HostWording): string =>
  summaryLine(envelope, wording, 'direct');

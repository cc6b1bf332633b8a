/**
 * What a person and a model are told when an MCP source fails: a HubError naming the source by
 * its namespace only (the message may reach the model, as a call's error) and what to do, with
 * the command line or URL in the detail, which only a person is shown, and the last lines the
 * server printed. Pure: the connector hands in the stderr tail it kept.
 */
import type { Source } from '../contracts/sources.ts';
import { HubError, isHubError } from '../errors.ts';

/**
 * A HubError saying what happened to which source, and what to do. The message names the
 * source by its namespace only, since it may reach the model (a call's error); the command
 * line or URL goes in the detail, which only a person is shown.
 */
export function explainFailure(
  source: Source,
  what: string,
  error: unknown,
  stderrTail: string | undefined,
): HubError {
  if (isHubError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const server = `the server for "${source.namespace}"`;
  const detail = where(source);
  const tail = stderrTail?.trim();
  const said = tail ? ` Its last output:\n${tail.split('\n').slice(-5).join('\n')}` : '';
  const explained = (text: string, more = detail) =>
    new HubError('unavailable', text, { cause: error, detail: more });
  if ((error as { status?: unknown }).status === 401) {
    return new HubError(
      'unauthorized',
      `${server} asks for a sign-in (it answered 401 Unauthorized) and the hub has none that it accepts.`,
      { cause: error, detail },
    );
  }
  if (/ENOENT/.test(message)) {
    return explained(
      `the command that starts "${source.namespace}" was not found on this machine. Check the command line, or install it.`,
      source.kind === 'mcp-stdio' ? `the command was not found: ${source.command[0]} (${detail})` : detail,
    );
  }
  if (/EACCES|EPERM/.test(message) && source.kind === 'mcp-stdio') {
    return explained(
      `the command that starts "${source.namespace}" may not be run on this machine (permission denied). Check the command line.`,
      `${detail}: ${message}`,
    );
  }
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|fetch failed/.test(message)) {
    return explained(
      `could not reach ${server}. Check its URL and that the server is running.`,
      source.kind === 'mcp-http' ? `could not reach ${source.url} (${message})` : `${detail}: ${message}`,
    );
  }
  if (/timed? ?out/i.test(message)) {
    return explained(`${server} did not answer in time; it may hang or be overloaded.${said}`);
  }
  if (/Connection closed|closed/i.test(message)) {
    return explained(`${server} exited before it answered.${said}`);
  }
  return explained(`${server} ${what}: ${message}${said}`);
}

/** Where a source is, for a person: its command line or its URL. */
export function where(source: Source): string {
  if (source.kind !== 'mcp-stdio') return `"${source.namespace}" is at ${source.url}`;
  const folder = source.cwd === undefined ? '' : ` in ${source.cwd}`;
  return `"${source.namespace}" runs \`${source.command.join(' ')}\`${folder}`;
}

/**
 * The OpenAPI part of `capabilities hub add`: whether what was given is an OpenAPI document (a
 * file that parses as one, or a URL whose answer is one) rather than an MCP server, and, once the
 * source is added, asking once for each credential its operations use. On a terminal each is
 * read at a masked prompt; otherwise from standard input, one value a line (a user and a password
 * take two); with nothing there, or with --no-input, the `hub auth` command to run is said instead.
 * An OAuth 2 authorization code flow is signed in to in the person's browser instead.
 * `addDocument` is the whole add of a document: read it, review its operations, store, ask.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { guardedFetch } from '../../engine/connectors/guarded-fetch.ts';
import { MAX_DOCUMENT_BYTES, openApiVersion, parseText } from '../../engine/connectors/openapi/document.ts';
import {
  basicCredential,
  type CredentialAsk,
  type OAuthFlowAsk,
} from '../../engine/connectors/openapi/security.ts';
import { describeDelivery, type SecretRef } from '../../engine/contracts/connections.ts';
import { HubError, isHubError } from '../../engine/errors.ts';
import { inertLine } from '../../engine/inert.ts';
import type { OAuthGrant } from '../../engine/secrets/oauth-grant.ts';
import type { Sources } from '../../engine/sources/sources.ts';
import type { OnHub } from './hub-action.ts';
import type { Output } from './output.ts';
import type { Interaction } from './review-prompt.ts';
import type { SignInOptions } from './source-sign-in.ts';

/** How long the probe of a URL waits for an answer before taking it for an MCP server. */
const PROBE_MS = 10_000;

/**
 * The document's location when `given` (before `--`, so never a command line) is an OpenAPI
 * document: a URL whose answer is one, or any file here, which adding then reads and says what is
 * wrong with (too large, not OpenAPI) rather than offering to run it. Undefined for a URL that
 * answers as an MCP server, or a path with no file.
 */
export async function openApiDocument(given: string): Promise<string | undefined> {
  if (/^https?:\/\//i.test(given)) return (await probeUrl(given)) ? given : undefined;
  const path = resolve(given);
  const info = await stat(path).catch(() => undefined);
  return info?.isFile() ? path : undefined;
}

/**
 * True when a GET of `url` answers a JSON or YAML document with `openapi` or `swagger` at the top.
 * The probe goes only where the person pointed: through guardedFetch, so a redirect is followed
 * within the URL's own origin and never to another host (the answer is then "not a document").
 */
async function probeUrl(url: string): Promise<boolean> {
  try {
    const fetch = guardedFetch({ allowedHosts: [new URL(url).host], maxResponseBytes: MAX_DOCUMENT_BYTES });
    const response = await fetch(url, {
      // An MCP server answers a GET without text/event-stream in Accept with an error, never a stream.
      headers: { accept: 'application/json, application/yaml;q=0.9, text/yaml;q=0.8' },
      signal: AbortSignal.timeout(PROBE_MS),
    });
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || /event-stream/i.test(type)) {
      await response.body?.cancel();
      return false;
    }
    const text = await response.text();
    return text.length <= MAX_DOCUMENT_BYTES && openApiVersion(parseText(text)) !== undefined;
  } catch {
    return false;
  }
}

/** The `hub auth` command that enters the credential `ask` names. */
function authCommand(namespace: string, ask: CredentialAsk): string {
  const d = ask.delivery;
  const base = `capabilities hub auth ${namespace}`;
  if (!d || d.kind === 'env') return base;
  if (d.kind === 'oauth') return `${base} --oauth`;
  if (d.kind === 'query') return `${base} --query ${d.name}`;
  if (d.kind === 'cookie') return `${base} --cookie ${d.name}`;
  if (ask.basic) return `${base} --basic`;
  return d.scheme === 'Bearer' && d.name === 'Authorization' ? base : `${base} --header ${d.name}`;
}

/** `--client-id` (and `--client-secret`) as the person gave them, for a command to run again. */
function clientArguments(options: SignInOptions): string {
  if (!options.clientId) return '';
  return ` --client-id ${options.clientId}${options.clientSecret ? ' --client-secret' : ''}`;
}

/**
 * Signs in through the document's OAuth 2 flow and keeps the grant as the default connection;
 * false when the sign-in did not complete (said on stderr). A grant that cannot be kept is
 * revoked where it was issued, so it does not linger there.
 */
async function signInAsDefault(
  out: Output,
  sources: Sources,
  namespace: string,
  flow: OAuthFlowAsk,
  signIn: SignInGiven,
  command: string,
): Promise<boolean> {
  const { apiSignInFromCli } = await import('./source-sign-in.ts');
  let grant: OAuthGrant;
  try {
    grant = await apiSignInFromCli(out, flow, signIn.serverUrl, signIn.options, `\`${command}\``);
  } catch (error) {
    if (!isHubError(error)) throw error;
    out.note(`  ${inertLine(error.message)}`);
    return false;
  }
  try {
    await sources.saveCredential(namespace, 'default', { kind: 'oauth' }, JSON.stringify(grant));
    return true;
  } catch (error) {
    const { notRevoked, revokeGrant } = await import('../oauth/revoke-grant.ts');
    const why = await revokeGrant(grant);
    if (why) out.note(notRevoked(`the sign-in at ${new URL(grant.authorization_server).origin}`, why));
    if (!isHubError(error, 'invalid_input')) throw error;
    out.note(`  ${inertLine(error.message)}`);
    return false;
  }
}

/** Standard input's lines, all of it (a pipe or a file), without line ends. */
async function stdinLines(): Promise<string[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
}

/** Where an OAuth sign-in goes: the API's server, and the client the person named on the command line. */
export interface SignInGiven {
  serverUrl: string;
  options: SignInOptions;
}

/**
 * Asks once for each credential the document's operations use, into the default connection. An
 * OAuth 2 sign-in is made in the person's browser; a document that also takes keys keeps those as
 * the default connection, and the sign-in is left for another connection (one connection holds a
 * sign-in or keys, never both).
 */
export async function askCredentials(
  out: Output,
  sources: Sources,
  namespace: string,
  asks: readonly CredentialAsk[],
  signIn: SignInGiven,
): Promise<{ stored: string[]; later: string[] }> {
  const stored: string[] = [];
  const later: string[] = [];
  for (const ask of asks.filter((a) => !a.delivery)) {
    out.note(
      `  The document's "${inertLine(ask.scheme)}" is ${ask.label}; its operations are added and called without it.`,
    );
  }
  const wanted = asks.filter(
    (a): a is CredentialAsk & { delivery: SecretRef['delivery'] } =>
      a.delivery !== undefined && a.delivery.kind !== 'oauth',
  );
  const flow = asks.find((a) => a.oauth !== undefined);
  if (flow?.oauth && wanted.length > 0) {
    later.push(`${authCommand(namespace, flow)}${clientArguments(signIn.options)} --connection signed-in`);
  } else if (flow?.oauth && !out.options.input) later.push(authCommand(namespace, flow));
  else if (flow?.oauth) {
    const command = `${authCommand(namespace, flow)}${clientArguments(signIn.options)}`;
    const signedIn = await signInAsDefault(out, sources, namespace, flow.oauth, signIn, command);
    if (signedIn) stored.push(`${flow.scheme} (${flow.label})`);
    else later.push(command);
  }
  if (wanted.length === 0) {
    for (const command of later) out.note(`  Enter the credential later with \`${command}\`.`);
    return { stored, later };
  }
  const tty = process.stdin.isTTY === true;
  const lines = !out.options.input ? [] : tty ? undefined : await stdinLines();
  const next = async (message: string): Promise<string | undefined> => {
    if (lines) return lines.shift();
    const { password } = await import('@inquirer/prompts');
    return password({ message: inertLine(message), mask: '•' });
  };
  for (const ask of wanted) {
    const what = `${namespace}'s ${ask.scheme} (${ask.label}, sent only to the API's origin)`;
    let value: string | undefined;
    if (ask.basic) {
      const user = await next(`User for ${what}`);
      const pass = user === undefined ? undefined : await next(`Password for ${what}`);
      value = user === undefined || pass === undefined ? undefined : basicCredential(user, pass);
    } else value = await next(`Secret for ${what}`);
    if (value === undefined || value === '') {
      later.push(authCommand(namespace, ask));
      continue;
    }
    try {
      await sources.saveCredential(namespace, 'default', ask.delivery, value);
    } catch (error) {
      // The source is added already: a key refused (too short, say) is entered again with `hub auth`.
      if (!isHubError(error, 'invalid_input')) throw error;
      out.note(`  ${inertLine(error.message)}`);
      later.push(authCommand(namespace, ask));
      continue;
    }
    stored.push(`${ask.scheme} (${describeDelivery(ask.delivery)})`);
  }
  for (const command of later) out.note(`  Enter the credential later with \`${command}\`.`);
  return { stored, later };
}

/** `add` of an OpenAPI document: read it, review its operations, store the source, then ask for its keys once. */
export function addDocument(
  out: Output,
  given: {
    document: string;
    server?: string | undefined;
    namespace?: string | undefined;
    ask: Interaction;
    signIn: SignInOptions;
  },
): OnHub {
  return async ({ sources }) => {
    const review = await import('./review-prompt.ts');
    out.note(`Reading the OpenAPI document ${inertLine(given.document)}…`);
    const inspection = await sources.inspect(
      { kind: 'openapi', document: given.document, server: given.server },
      given.namespace,
    );
    const { source, manifest } = inspection;
    if (source.kind !== 'openapi') throw new HubError('internal', 'an OpenAPI draft became another kind');
    out.note(
      `Found ${manifest.tools.length} operations; namespace "${source.namespace}"; calls go to ${inertLine(source.url)} only.`,
    );
    for (const notice of inspection.notices) out.note(`  The hub ${inertLine(notice)}`);
    const effects = await review.decideReview(inspection.review, given.ask, out);
    if (!effects) {
      out.result({ added: false }, 'Cancelled; nothing was added.');
      return;
    }
    sources.addSource(inspection, effects);
    const keys = await askCredentials(out, sources, source.namespace, inspection.credentials, {
      serverUrl: source.url,
      options: given.signIn,
    });
    const counts = review.countEffects(effects);
    out.result(
      {
        added: true,
        namespace: source.namespace,
        kind: source.kind,
        server: source.url,
        tools: manifest.tools.length,
        policies: counts,
        notices: inspection.notices,
        credentials: keys,
      },
      `Added "${source.namespace}" with ${manifest.tools.length} tools ` +
        `(${counts.allow} allow, ${counts.ask} ask, ${counts.deny} deny), each pinned to its contract` +
        (keys.stored.length ? `; stored ${keys.stored.join(', ')} as its default connection.` : '.'),
    );
  };
}

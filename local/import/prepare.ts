/**
 * One import item made ready to add, or the reason it cannot be: the source draft (the command
 * line or URL with every `${VAR}` filled in, settings that are not secret), the secrets its
 * connection will hold (each with how it reaches the server: an environment variable or a
 * header), and what the person should know. Secrets never go into the draft, since the draft is
 * stored in hub.db: a token a harness keeps inside a URL or an argument (where the hub has no
 * way to put it back at run time) makes the item skipped, with what to do instead. Pure.
 */

import { type Credentials, type DeliveredSecret, deliver } from '../../engine/connectors/connector.ts';
import { deliveryName } from '../../engine/contracts/connections.ts';
import { MIN_STORED_SECRET_LENGTH } from '../../engine/sources/save-credential.ts';
import type { SourceDraft } from '../../engine/sources/sources.ts';
import type { Credential } from './classify.ts';
import type { ImportItem } from './plan.ts';
import { type ResolvedCredential, resolveCredentials } from './resolve.ts';
import { secretName, tokenShaped } from './secret-shape.ts';

/** A secret for the item's connection: where it goes and its value. Never printed. */
export type ImportSecret = DeliveredSecret;

export interface Prepared {
  item: ImportItem;
  /** A harness names MCP servers only, never an OpenAPI document. */
  draft: Exclude<SourceDraft, { kind: 'openapi' }>;
  /** For the connection named `default`; its values are never printed. */
  secrets: ImportSecret[];
  /** What the person should know: a variable that was unset, a header left out. Printable. */
  notes: string[];
}

export interface Skipped {
  item: ImportItem;
  /** Why, and what to do instead. Printable. */
  reason: string;
}

export interface PrepareOptions {
  /** The person's environment, for `${VAR}` references (read only with their consent). */
  env: Readonly<Record<string, string | undefined>>;
  /** Where a stdio server runs when its entry names no folder (a project's entry: the project). */
  defaultCwd: string;
}

/** A value from the environment that looks like a credential by its variable's name or its shape. */
function looksSecret(variable: string, value: string): boolean {
  return secretName(variable) || tokenShaped(value);
}

function headerSecret(name: string, value: string): ImportSecret {
  const bearer = /^Bearer\s+(.+)$/i.exec(value);
  return bearer?.[1]
    ? { delivery: { kind: 'header', name, scheme: 'Bearer' }, value: bearer[1] }
    : { delivery: { kind: 'header', name, scheme: '' }, value };
}

/** Variables referenced by the credential that went into `resolved` (for the secret-or-setting test). */
function variablesOf(credentials: readonly Credential[], resolved: ResolvedCredential): string[] {
  return credentials
    .filter((c) => c.kind === 'reference' && c.where === resolved.kind && c.name === resolved.name)
    .map((c) => (c.kind === 'reference' ? c.variable : ''));
}

export function prepareItem(
  item: ImportItem,
  credentials: readonly Credential[],
  options: PrepareOptions,
): Prepared | Skipped {
  if (item.disabled) {
    return { item, reason: 'it is turned off in every harness that lists it; add it by hand to use it' };
  }
  const plain = credentials.find((c) => c.kind === 'url' || c.kind === 'arg');
  if (plain) {
    const where = plain.kind === 'url' ? 'its URL' : `its argument ${plain.name}`;
    return {
      item,
      reason:
        `its token is written into ${where}, and the hub keeps secrets only as environment variables or headers. ` +
        'If the server also reads the token from a variable or header, add it with `capabilities hub add` and give the token with `capabilities hub auth`',
    };
  }
  const { values, missing } = resolveCredentials(credentials, options.env);
  const notes = missing.map(
    (m) =>
      `$${m.variable} (for ${m.name}) is not set here; it was left out: add it later with \`capabilities hub auth ${item.namespace}\``,
  );
  const secrets: ImportSecret[] = [];
  const filled = new Map<string, string>();
  for (const value of values) {
    if (value.kind === 'env')
      secrets.push({ delivery: { kind: 'env', variable: value.name }, value: value.value });
    else if (value.kind === 'header') secrets.push(headerSecret(value.name, value.value));
    else {
      // A URL, an argument, the command or its folder: stored in hub.db, so never a secret.
      if (variablesOf(credentials, value).some((variable) => looksSecret(variable, value.value))) {
        return {
          item,
          reason:
            `${value.name} takes a credential from your environment, and the hub keeps secrets only as environment variables or headers. ` +
            'Add it with `capabilities hub add` and give the token with `capabilities hub auth`',
        };
      }
      filled.set(`${value.kind}\u0000${value.name}`, value.value);
    }
  }
  for (const secret of secrets) {
    if (secret.value.length < MIN_STORED_SECRET_LENGTH) {
      const name = deliveryName(secret.delivery);
      notes.push(
        `${name} is shorter than ${MIN_STORED_SECRET_LENGTH} characters, too short to keep as a secret; it was left out: enter the real one with \`capabilities hub auth ${item.namespace}\``,
      );
    }
  }
  const kept = secrets.filter((s) => s.value.length >= MIN_STORED_SECRET_LENGTH);
  const unresolved = new Set(missing.map((m) => m.name));
  const t = item.transport;
  if (t.kind === 'stdio') {
    const secretNames = new Set(
      credentials.flatMap((c) =>
        c.kind === 'env' || (c.kind === 'reference' && c.where === 'env') ? [c.name] : [],
      ),
    );
    const env = Object.fromEntries(Object.entries(t.env).filter(([name]) => !secretNames.has(name)));
    const command = filled.get('command\u0000command') ?? t.command;
    const args = t.args.map((arg, i) => filled.get(`arg\u0000args[${i}]`) ?? arg);
    const cwd = t.cwd === undefined ? options.defaultCwd : (filled.get('cwd\u0000cwd') ?? t.cwd);
    const left = [command, ...args, cwd].some((part) => /\$\{[A-Za-z_]\w*\}/.test(part));
    if (
      left &&
      [...unresolved].some((name) => name === 'command' || name === 'cwd' || name.startsWith('args['))
    ) {
      return {
        item,
        reason: `its command line refers to a variable that is not set here (${[...unresolved].join(', ')}); set it and import again`,
      };
    }
    return {
      item,
      draft: { kind: 'mcp-stdio', command: [command, ...args], env, cwd, consented: true },
      secrets: kept,
      notes,
    };
  }
  if (unresolved.has('url')) {
    return { item, reason: 'its URL refers to a variable that is not set here; set it and import again' };
  }
  const secretHeaders = new Set(
    credentials.flatMap((c) =>
      c.kind === 'header' || (c.kind === 'reference' && c.where === 'header') ? [c.name] : [],
    ),
  );
  for (const name of Object.keys(t.headers)) {
    if (!secretHeaders.has(name)) {
      notes.push(
        `the header ${name} is not a credential, and the hub sends only credentials as headers; it was left out`,
      );
    }
  }
  return {
    item,
    draft: { kind: 'mcp-http', url: filled.get('url\u0000url') ?? t.url },
    secrets: kept,
    notes,
  };
}

/** The credentials that list the item's tools before anything is stored: its secrets, delivered. */
export function listingCredentials(prepared: Prepared): Credentials {
  return deliver(null, prepared.secrets);
}

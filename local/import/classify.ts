/**
 * Splitting one found server into what may be shown and what may not: every plaintext secret in
 * its env, headers, URL or arguments becomes a `Credential` (with its value, for the secret store
 * only) and `<secret>` in the printable transport; every reference to the environment becomes a
 * `reference` credential (no value: it is resolved at import time, with consent) and is printed
 * as `${VAR}`. Pure.
 */
import type { FoundServer, Interpolation } from './found.ts';
import { normalizeReferences, variablesIn } from './references.ts';
import { secretFlag, secretName, tokenShaped, urlSecrets } from './secret-shape.ts';

export const SECRET_PLACEHOLDER = '<secret>';

export type Credential =
  | { kind: 'env' | 'header' | 'url' | 'arg'; name: string; value: string }
  | {
      kind: 'reference';
      where: 'env' | 'header' | 'url' | 'arg' | 'command' | 'cwd';
      name: string;
      variable: string;
      /** The whole value in `${VAR}` form (`Bearer ${TOKEN}`), printable. */
      template: string;
      /** The harness's `${VAR:-default}`; may be a token, so never printed. */
      fallback?: string | undefined;
    };

export type PrintableTransport =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string | undefined }
  | { kind: 'http' | 'sse'; url: string; headers: Record<string, string> };

export interface Classified {
  transport: PrintableTransport;
  credentials: Credential[];
}

type Where = Extract<Credential, { kind: 'reference' }>['where'];

function referenced(
  where: Where,
  name: string,
  value: string,
  interpolation: Interpolation,
  out: Credential[],
): string | undefined {
  const uses = variablesIn(value, interpolation);
  if (uses.length === 0) return undefined;
  const template = normalizeReferences(value, interpolation);
  for (const use of uses)
    out.push({ kind: 'reference', where, name, variable: use.variable, template, fallback: use.fallback });
  return template;
}

/** A named value (env entry, header): a reference, a secret, or a setting shown as is. */
function namedValue(
  kind: 'env' | 'header',
  name: string,
  value: string,
  interpolation: Interpolation,
  out: Credential[],
): string {
  const template = referenced(kind, name, value, interpolation, out);
  if (template !== undefined) return template;
  // Empty, or asked by VS Code itself (`${input:id}`): nothing to keep secret.
  if (value.trim() === '' || /\$\{input:[^}]+\}/.test(value)) return value;
  if (secretName(name) || tokenShaped(value)) {
    out.push({ kind, name, value });
    return SECRET_PLACEHOLDER;
  }
  const inUrl = urlSecrets(value);
  if (inUrl.secrets.length > 0) {
    out.push({ kind, name, value });
    return inUrl.redacted;
  }
  return value;
}

function argsOf(args: readonly string[], interpolation: Interpolation, out: Credential[]): string[] {
  return args.map((arg, i) => {
    const name = `args[${i}]`;
    const template = referenced('arg', name, arg, interpolation, out);
    if (template !== undefined) return template;
    const flag = /^(--?[A-Za-z][\w-]*)=(.+)$/.exec(arg);
    if (flag?.[1] && flag[2] && secretFlag(flag[1])) {
      out.push({ kind: 'arg', name: flag[1], value: flag[2] });
      return `${flag[1]}=${SECRET_PLACEHOLDER}`;
    }
    const previous = args[i - 1];
    if ((previous !== undefined && secretFlag(previous)) || tokenShaped(arg)) {
      out.push({
        kind: 'arg',
        name: previous !== undefined && secretFlag(previous) ? previous : name,
        value: arg,
      });
      return SECRET_PLACEHOLDER;
    }
    const inUrl = urlSecrets(arg);
    if (inUrl.secrets.length > 0) {
      out.push({ kind: 'arg', name, value: arg });
      return inUrl.redacted;
    }
    return arg;
  });
}

function mapValues(
  record: Readonly<Record<string, string>>,
  each: (name: string, value: string) => string,
): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([name, value]) => [name, each(name, value)]));
}

export function classify(server: FoundServer): Classified {
  const credentials: Credential[] = [];
  const i = server.interpolation;
  const t = server.transport;
  if (t.kind === 'stdio') {
    const command = referenced('command', 'command', t.command, i, credentials) ?? t.command;
    const cwd = t.cwd === undefined ? undefined : (referenced('cwd', 'cwd', t.cwd, i, credentials) ?? t.cwd);
    const args = argsOf(t.args, i, credentials);
    const env = mapValues(t.env, (name, value) => namedValue('env', name, value, i, credentials));
    return { transport: { kind: 'stdio', command, args, env, cwd }, credentials };
  }
  let url = referenced('url', 'url', t.url, i, credentials);
  if (url === undefined) {
    const inUrl = urlSecrets(t.url);
    for (const secret of inUrl.secrets)
      credentials.push({ kind: 'url', name: secret.name, value: secret.value });
    url = inUrl.redacted;
  }
  const headers = mapValues(t.headers, (name, value) => namedValue('header', name, value, i, credentials));
  return { transport: { kind: t.kind, url, headers }, credentials };
}

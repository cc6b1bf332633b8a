/**
 * The import plan: every server found, duplicates merged (the same command and arguments, or the
 * same URL, under other names or in other harnesses; each origin kept), a namespace proposed for
 * each (from the server's name, else its URL's host or its package: `@modelcontextprotocol/
 * server-github` → `github`; unique against the hub's and each other; the same input always
 * gives the same plan), and its credentials kept apart: `items` and `toJSON()` are printable and
 * hold no secret value; `credentials` (namespace → values) is for the secret store alone. Pure.
 */
import { proposeNamespace } from '../../engine/sources/namespace.ts';
import { type Classified, type Credential, classify, type PrintableTransport } from './classify.ts';
import { type FoundServer, HARNESSES, type HarnessId, type Scope } from './found.ts';

export interface Origin {
  harness: HarnessId;
  name: string;
  file: string;
  scope: Scope;
  project?: string | undefined;
}

/** A credential as it may be shown: what and where, never the value. */
export type CredentialNeed =
  | { kind: 'env' | 'header' | 'url' | 'arg'; name: string }
  | { kind: 'reference'; where: string; name: string; variable: string };

export interface ImportItem {
  namespace: string;
  /** The transport with every secret replaced by `<secret>` and every reference written `${VAR}`. */
  transport: PrintableTransport;
  origins: Origin[];
  /** Every harness that lists it has it turned off. */
  disabled: boolean;
  needs: CredentialNeed[];
}

export interface PlanSummary {
  items: ImportItem[];
  /** Entries that run this hub itself (what `hub connect` writes): never imported into it. */
  hubEntries: Origin[];
  /** Servers the hub already has as a source (the same command and arguments, or URL): not imported again. */
  present: { namespace: string; origins: Origin[] }[];
}

export interface ImportPlan extends PlanSummary {
  /** Namespace → the plaintext secrets and references its connection needs. Never print this. */
  credentials: ReadonlyMap<string, readonly Credential[]>;
  /** The printable plan: `JSON.stringify(plan)` holds no secret value. */
  toJSON(): PlanSummary;
}

const SCOPES: readonly Scope[] = ['user', 'local', 'project'];

function order(a: FoundServer, b: FoundServer): number {
  return (
    HARNESSES.indexOf(a.harness) - HARNESSES.indexOf(b.harness) ||
    SCOPES.indexOf(a.scope) - SCOPES.indexOf(b.scope) ||
    compare(a.file, b.file) ||
    compare(a.project ?? '', b.project ?? '') ||
    compare(a.name, b.name)
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `npx`, `C:\Program Files\nodejs\npx.cmd` and `/usr/local/bin/npx` are the same command. */
function commandKey(command: string): string {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.toLowerCase().replace(/\.(cmd|exe|bat|ps1)$/, '');
}

function urlKey(url: string): string {
  try {
    const u = new URL(url);
    u.hash = '';
    return u.toString().replace(/\/+$/, '');
  } catch {
    return url.trim();
  }
}

/** Two entries are the same server when this is equal. Built from printable parts only. */
export function sameServerKey(transport: PrintableTransport): string {
  return transport.kind === 'stdio'
    ? `stdio ${JSON.stringify([commandKey(transport.command), ...transport.args])}`
    : `remote ${urlKey(transport.url)}`;
}

/** `…/capabilities hub serve …`, directly or through an interpreter: the hub's own entry in a harness. */
export function runsTheHub(transport: PrintableTransport): boolean {
  if (transport.kind !== 'stdio') return false;
  const words = [transport.command, ...transport.args];
  return words.some(
    (word, i) => commandKey(word) === 'capabilities' && words[i + 1] === 'hub' && words[i + 2] === 'serve',
  );
}

function originOf(server: FoundServer): Origin {
  return {
    harness: server.harness,
    name: server.name,
    file: server.file,
    scope: server.scope,
    project: server.project,
  };
}

function need(credential: Credential): CredentialNeed {
  return credential.kind === 'reference'
    ? { kind: 'reference', where: credential.where, name: credential.name, variable: credential.variable }
    : { kind: credential.kind, name: credential.name };
}

interface Group {
  first: Classified;
  members: { server: FoundServer; classified: Classified }[];
}

/** The transport and credentials of a group: the first origin's, with env entries and headers the others add. */
function merged(group: Group): Classified {
  const transport = structuredClone(group.first.transport);
  const credentials = [...group.first.credentials];
  for (const { classified } of group.members.slice(1)) {
    const extra = classified.transport;
    const kind = extra.kind === 'stdio' ? 'env' : 'header';
    const target = transport.kind === 'stdio' ? transport.env : transport.headers;
    const source = extra.kind === 'stdio' ? extra.env : extra.headers;
    if ((transport.kind === 'stdio') !== (extra.kind === 'stdio')) continue;
    for (const [name, value] of Object.entries(source)) {
      if (name in target) continue;
      target[name] = value;
      credentials.push(
        ...classified.credentials.filter(
          (c) => c.name === name && (c.kind === kind || (c.kind === 'reference' && c.where === kind)),
        ),
      );
    }
  }
  return { transport, credentials };
}

/** A source the hub has, as far as telling it from a harness's entry goes. */
export type ExistingSource =
  | { kind: 'mcp-stdio'; namespace: string; command: readonly string[] }
  | { kind: 'mcp-http'; namespace: string; url: string }
  /** An OpenAPI source: no harness entry is one, so its key matches none. */
  | { kind: 'openapi'; namespace: string; document: string };

/** The key of a source the hub has, comparable with `sameServerKey` of a harness's entry. */
export function sourceKey(source: ExistingSource): string {
  if (source.kind === 'openapi') return `openapi\u0000${source.document}`;
  return source.kind === 'mcp-stdio'
    ? sameServerKey({
        kind: 'stdio',
        command: source.command[0] ?? '',
        args: source.command.slice(1),
        env: {},
      })
    : sameServerKey({ kind: 'http', url: source.url, headers: {} });
}

export interface PlanOptions {
  /** The hub's sources: their namespaces are taken, and their servers are not imported again. */
  existing: readonly ExistingSource[];
}

export function planImport(found: readonly FoundServer[], options: PlanOptions): ImportPlan {
  const groups = new Map<string, Group>();
  const hubEntries: Origin[] = [];
  for (const server of [...found].sort(order)) {
    const classified = classify(server);
    if (runsTheHub(classified.transport)) {
      hubEntries.push(originOf(server));
      continue;
    }
    const key = sameServerKey(classified.transport);
    const group = groups.get(key);
    if (group) group.members.push({ server, classified });
    else groups.set(key, { first: classified, members: [{ server, classified }] });
  }
  const taken = new Set(options.existing.map((source) => source.namespace));
  const had = new Map(options.existing.map((source) => [sourceKey(source), source.namespace]));
  const present: PlanSummary['present'] = [];
  const items: ImportItem[] = [];
  const credentials = new Map<string, readonly Credential[]>();
  for (const [key, group] of groups) {
    const primary = group.members[0]?.server;
    if (!primary) continue;
    const namespaceHad = had.get(key);
    if (namespaceHad !== undefined) {
      present.push({ namespace: namespaceHad, origins: group.members.map(({ server }) => originOf(server)) });
      continue;
    }
    const { transport, credentials: secrets } = merged(group);
    const namespace = proposeNamespace(
      {
        serverName: primary.name,
        url: transport.kind === 'stdio' ? undefined : transport.url,
        command: transport.kind === 'stdio' ? [transport.command, ...transport.args] : undefined,
      },
      taken,
    );
    taken.add(namespace);
    credentials.set(namespace, secrets);
    items.push({
      namespace,
      transport,
      origins: group.members.map(({ server }) => originOf(server)),
      disabled: group.members.every(({ server }) => server.disabled),
      needs: secrets.map(need),
    });
  }
  return { items, hubEntries, present, credentials, toJSON: () => ({ items, hubEntries, present }) };
}

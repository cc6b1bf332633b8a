/**
 * Applying an import plan to the hub: every item prepared (prepare.ts), one consent for
 * everything that runs or is kept (each stdio command exactly as it will run, each variable
 * read from the environment, each credential for the secret store), every server started or
 * reached and its tools listed (a few at a time, with its credentials, nothing stored yet), one
 * review of every new tool, then each source stored with its pinned policies and its connection.
 * A server that fails is reported with its own words (the stderr tail the connector keeps) and
 * stored as a source with no tool list to fix and refresh, or left out with `skipFailing`; the
 * others go on. A cancelled consent or review stores nothing.
 */
import type { SecretRef } from '../../engine/contracts/connections.ts';
import { deliveryName } from '../../engine/contracts/connections.ts';
import type { PolicyEffect } from '../../engine/contracts/policy.ts';
import { isHubError } from '../../engine/errors.ts';
import type { ReviewItem } from '../../engine/sources/review.ts';
import type { Inspection, Sources } from '../../engine/sources/sources.ts';
import type { ImportItem, ImportPlan } from './plan.ts';
import { listingCredentials, type Prepared, prepareItem, type Skipped } from './prepare.ts';

/** What the person is asked to agree to before anything runs or is kept. Printable. */
export interface ImportConsent {
  /** Each command as it will run: its settings (`KEY=value`, never a secret), the command line, the folder. */
  commands: { namespace: string; command: string[]; env: Record<string, string>; cwd: string }[];
  servers: { namespace: string; url: string }[];
  /** Variables read from the environment into the hub, and for which source. */
  variables: { namespace: string; variable: string }[];
  /** Credentials to keep in the secret store, by source and name: never the value. */
  secrets: { namespace: string; name: string; delivery: SecretRef['delivery']['kind'] }[];
}

export interface ImportDeps {
  sources: Sources;
  plan: ImportPlan;
  env: Readonly<Record<string, string | undefined>>;
  /** Where a stdio server whose entry names no folder runs. */
  cwdFor(item: ImportItem): string;
  /** The parts of a command line that reach the hub's own home (home-exposure.ts). */
  reachesHome(command: readonly string[], env: Readonly<Record<string, string>>, cwd: string): string[];
  skipFailing: boolean;
  consent(request: ImportConsent): Promise<boolean>;
  review(items: ReviewItem[]): Promise<Map<string, PolicyEffect> | undefined>;
  progress(line: string): void;
}

export interface ImportedSource {
  namespace: string;
  tools: number;
  policies: { allow: number; ask: number; deny: number };
  /** `claude-code:github`, … */
  from: string[];
  notes: string[];
}

export interface FailedSource {
  namespace: string;
  /** What went wrong, in the connector's words (with the server's last output). Printable. */
  error: string;
  detail?: string | undefined;
  /** Stored with no tool list (to fix and refresh), or left out (`--skip-failing`). */
  stored: boolean;
}

export interface ImportOutcome {
  status: 'imported' | 'nothing' | 'cancelled';
  imported: ImportedSource[];
  failed: FailedSource[];
  skipped: { namespace: string; reason: string }[];
}

/** A prepared item with its tools listed, or what listing them threw. */
type Listed = { prepared: Prepared; inspection: Inspection } | { prepared: Prepared; error: unknown };

const isSkipped = (p: Prepared | Skipped): p is Skipped => 'reason' in p;

function consentOf(ready: readonly Prepared[]): ImportConsent {
  const consent: ImportConsent = { commands: [], servers: [], variables: [], secrets: [] };
  for (const { item, draft, secrets } of ready) {
    const namespace = item.namespace;
    if (draft.kind === 'mcp-stdio') {
      consent.commands.push({
        namespace,
        command: draft.command,
        env: draft.env ?? {},
        cwd: draft.cwd ?? '',
      });
    } else {
      consent.servers.push({ namespace, url: draft.url });
    }
    for (const need of item.needs) {
      if (need.kind === 'reference') consent.variables.push({ namespace, variable: need.variable });
    }
    for (const { delivery } of secrets) {
      consent.secrets.push({
        namespace,
        name: deliveryName(delivery),
        delivery: delivery.kind,
      });
    }
  }
  return consent;
}

/** Runs `work` over `items`, at most `limit` at once, results in order. */
async function eachLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Servers started at once while listing tools: enough to hide npx's start-up, few enough for a laptop. */
const AT_ONCE = 4;

function countEffects(effects: Iterable<PolicyEffect>): ImportedSource['policies'] {
  const counts = { allow: 0, ask: 0, deny: 0 };
  for (const effect of effects) counts[effect]++;
  return counts;
}

const from = (item: ImportItem): string[] => item.origins.map((o) => `${o.harness}:${o.name}`);

export async function applyImport(deps: ImportDeps): Promise<ImportOutcome> {
  const outcome: ImportOutcome = { status: 'nothing', imported: [], failed: [], skipped: [] };
  const ready: Prepared[] = [];
  for (const item of deps.plan.items) {
    const prepared = prepareItem(item, deps.plan.credentials.get(item.namespace) ?? [], {
      env: deps.env,
      defaultCwd: deps.cwdFor(item),
    });
    if (isSkipped(prepared)) {
      outcome.skipped.push({ namespace: item.namespace, reason: prepared.reason });
      continue;
    }
    if (prepared.draft.kind === 'mcp-stdio') {
      const reach = deps.reachesHome(
        prepared.draft.command,
        prepared.draft.env ?? {},
        prepared.draft.cwd ?? '',
      );
      if (reach.length > 0) {
        outcome.skipped.push({
          namespace: item.namespace,
          reason: `\`${reach.join('`, `')}\` reaches this hub's own home (its store, token and secrets); add it with \`capabilities hub add --allow-home\` if you mean it`,
        });
        continue;
      }
    }
    ready.push(prepared);
  }
  if (ready.length === 0) return outcome;
  if (!(await deps.consent(consentOf(ready)))) return { ...outcome, status: 'cancelled' };

  const listed = await eachLimited(ready, AT_ONCE, async (prepared): Promise<Listed> => {
    deps.progress(`Listing the tools of "${prepared.item.namespace}"…`);
    try {
      const inspection = await deps.sources.inspect(
        prepared.draft,
        prepared.item.namespace,
        listingCredentials(prepared),
      );
      return { prepared, inspection };
    } catch (error) {
      return { prepared, error };
    }
  });
  const inspected = listed.filter((l) => 'inspection' in l);
  const effects = await deps.review(inspected.flatMap(({ inspection }) => inspection.review));
  if (!effects) return { ...outcome, status: 'cancelled' };

  outcome.status = 'imported';
  for (const entry of listed) await store(deps, entry, effects, outcome);
  return outcome;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Stores one listed entry: the source (with its tools, or without when they could not be
 * listed) and then its credentials. Whatever fails is this entry's outcome, never the end of
 * the import: a source stored without its credential says how to enter it.
 */
async function store(
  deps: ImportDeps,
  entry: Listed,
  effects: ReadonlyMap<string, PolicyEffect>,
  outcome: ImportOutcome,
): Promise<void> {
  const { item, secrets, notes, draft } = entry.prepared;
  const namespace = item.namespace;
  const failed = (error: unknown, stored: boolean, what = ''): void => {
    outcome.failed.push({
      namespace,
      error: `${what}${messageOf(error)}`,
      detail: isHubError(error) ? error.detail : undefined,
      stored,
    });
  };
  const saveAll = async (): Promise<boolean> => {
    try {
      for (const secret of secrets) await save(deps.sources, namespace, secret);
      return true;
    } catch (error) {
      failed(
        error,
        true,
        `it was added, but its credential could not be kept (enter it with \`capabilities hub auth ${namespace}\`): `,
      );
      return false;
    }
  };
  if ('inspection' in entry) {
    const { inspection } = entry;
    const mine = new Map([...effects].filter(([address]) => address.startsWith(`${namespace}.`)));
    try {
      deps.sources.addSource(inspection, mine);
    } catch (error) {
      failed(error, false);
      return;
    }
    if (!(await saveAll())) return;
    outcome.imported.push({
      namespace,
      tools: inspection.manifest.tools.length,
      policies: countEffects(mine.values()),
      from: from(item),
      notes: [...notes, ...inspection.notices.map((n) => `the hub ${n}`)],
    });
    return;
  }
  if (deps.skipFailing) {
    failed(entry.error, false);
    return;
  }
  try {
    deps.sources.addUnlisted(draft, namespace);
  } catch (error) {
    // It cannot be stored at all (its URL is not one the hub can use): what listing said is the reason.
    failed(entry.error ?? error, false);
    return;
  }
  failed(entry.error, true);
  await saveAll();
}

async function save(sources: Sources, namespace: string, secret: Prepared['secrets'][number]): Promise<void> {
  await sources.saveCredential(namespace, 'default', secret.delivery, secret.value);
}

/**
 * Records <-> rows. Every record leaving the store is parsed with its zod schema, so a row
 * that was tampered with or written by a broken build is reported as `corrupt` instead of
 * travelling on as a wrong type.
 *
 * One exception, for speed on the call path: a part of a record that is any JSON value (a tool's
 * schemas, a call's value, a run's result) is read from a JSON column, which the driver turned
 * into a value with JSON.parse, and JSON.parse yields nothing but JSON. Walking it again with
 * `JsonValue` (a union tried at every node) proved nothing new and cost more than the query, so
 * those parts are read as they were parsed, checked only for their kind (an object where an
 * object belongs); every other field is parsed as before. On the way in, JSON values are still
 * checked in full, by `isJsonValue` first and by zod only to say what is wrong.
 */
import { z } from 'zod';
import { Connection, type SecretRef } from '../contracts/connections.ts';
import type { JsonValue } from '../contracts/names.ts';
import { PolicyRule } from '../contracts/policy.ts';
import {
  CallDecision,
  CallOutcome,
  Decision,
  type JournalEntry,
  PendingInput,
  Run,
} from '../contracts/runs.ts';
import { Manifest, ManifestTool, Source, ToolReview } from '../contracts/sources.ts';
import { HubError } from '../errors.ts';
import type * as t from './schema.ts';

type Row<T extends { $inferSelect: unknown }> = T['$inferSelect'];

/** Parses `value` with `schema`, or throws `corrupt` naming the record. */
export function parseRecord<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new HubError(
      'corrupt',
      `the stored ${what} is not valid: ${parsed.error.issues[0]?.message ?? 'unknown'}`,
    );
  }
  return parsed.data;
}

/** Validates a record on its way in, or throws `invalid_input` naming the first problem. */
export function checkInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new HubError('invalid_input', `this ${what} is not valid${at}: ${issue?.message ?? 'unknown'}`);
  }
  return parsed.data;
}

/**
 * True when `value` is a JSON value, as `JsonValue` accepts it (finite numbers, plain objects,
 * arrays without holes), walked once without zod. Stricter than or equal to `JsonValue`, never
 * looser: anything it refuses goes to zod, which decides and names the problem.
 */
export function isJsonValue(value: unknown): value is JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!isJsonValue(value[i])) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      if (Object.getOwnPropertySymbols(value).length > 0) return false;
      for (const key of Object.keys(value)) {
        if (!isJsonValue((value as Record<string, unknown>)[key])) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** A JSON column's value as the driver parsed it (see the top of this file). */
const ParsedJson = z.custom<JsonValue>((value) => value !== undefined);
const ParsedJsonObject = z.custom<{ [key: string]: JsonValue }>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
);
const StoredTool = ManifestTool.extend({
  inputSchema: ParsedJsonObject,
  outputSchema: ParsedJsonObject.optional(),
});
const StoredManifest = Manifest.extend({ tools: z.array(StoredTool) });
const StoredReview = ToolReview.extend({ tool: StoredTool });
const [SucceededOutcome, FailedOutcome] = CallOutcome.options;
const StoredOutcome = z.discriminatedUnion('ok', [
  SucceededOutcome.extend({ value: ParsedJson }),
  FailedOutcome,
]);
const StoredRun = Run.extend({ result: ParsedJson.optional() });
const RunState = Run.pick({ status: true, attempts: true });

/** A call's outcome on its way in: checked in full, JSON values by `isJsonValue`. */
const OutcomeInput = z.discriminatedUnion('ok', [
  SucceededOutcome.extend({ value: z.custom<JsonValue>(isJsonValue) }),
  FailedOutcome,
]);
const RunInput = Run.extend({ result: z.custom<JsonValue>(isJsonValue).optional() });

/** Validates with `fast`; when it refuses, `full` decides and names the problem. */
function checkFast<S extends z.ZodType>(fast: z.ZodType, full: S, value: unknown, what: string): z.infer<S> {
  const parsed = fast.safeParse(value);
  return parsed.success ? (parsed.data as z.infer<S>) : checkInput(full, value, what);
}

export const checkOutcome = (outcome: unknown): CallOutcome =>
  checkFast(OutcomeInput, CallOutcome, outcome, 'call outcome');

export const checkRun = (run: unknown): Run => checkFast(RunInput, Run, run, 'run');

/** A review as stored. */
export function reviewFromRow(row: Row<typeof t.hubReviews>): ToolReview {
  return parseRecord(StoredReview, row, `review of ${row.address}`);
}

const nullToUndefined = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

export function sourceToRow(source: Source): Row<typeof t.hubSources> {
  const base = { namespace: source.namespace, addedAt: source.addedAt, updatedAt: source.updatedAt };
  const none = {
    command: null,
    env: null,
    consent: null,
    cwd: null,
    url: null,
    allowedHosts: null,
    document: null,
  };
  switch (source.kind) {
    case 'mcp-stdio':
      return {
        ...base,
        ...none,
        kind: source.kind,
        command: source.command,
        env: source.env,
        consent: source.consent,
        cwd: source.cwd ?? null,
      };
    case 'mcp-http':
      return { ...base, ...none, kind: source.kind, url: source.url, allowedHosts: source.allowedHosts };
    case 'openapi':
      return {
        ...base,
        ...none,
        kind: source.kind,
        url: source.url,
        allowedHosts: source.allowedHosts,
        document: source.document,
      };
  }
}

export function sourceFromRow(row: Row<typeof t.hubSources>): Source {
  const base = { namespace: row.namespace, addedAt: row.addedAt, updatedAt: row.updatedAt };
  const record =
    row.kind === 'mcp-stdio'
      ? {
          ...base,
          kind: row.kind,
          command: row.command,
          env: row.env ?? {},
          consent: row.consent,
          cwd: nullToUndefined(row.cwd),
        }
      : row.kind === 'openapi'
        ? { ...base, kind: row.kind, url: row.url, allowedHosts: row.allowedHosts, document: row.document }
        : { ...base, kind: row.kind, url: row.url, allowedHosts: row.allowedHosts };
  return parseRecord(Source, record, `source "${row.namespace}"`);
}

const toolRecord = (tool: Row<typeof t.hubTools>) => ({
  address: tool.address,
  name: tool.name,
  title: nullToUndefined(tool.title),
  description: nullToUndefined(tool.description),
  inputSchema: tool.inputSchema,
  outputSchema: nullToUndefined(tool.outputSchema),
  annotations: nullToUndefined(tool.annotations),
  operation: nullToUndefined(tool.operation),
  contract: tool.contract,
});

export function manifestFromRows(
  head: Row<typeof t.hubManifests>,
  tools: readonly Row<typeof t.hubTools>[],
): Manifest {
  return parseRecord(
    StoredManifest,
    {
      namespace: head.namespace,
      fetchedAt: head.fetchedAt,
      server: nullToUndefined(head.server),
      instructions: nullToUndefined(head.instructions),
      tools: tools.map(toolRecord),
    },
    `manifest of "${head.namespace}"`,
  );
}

export function toolFromRow(row: Row<typeof t.hubTools>): ManifestTool {
  return parseRecord(StoredTool, toolRecord(row), `tool ${row.address}`);
}

export function connectionFromRow(row: Row<typeof t.hubConnections>): Connection {
  return parseRecord(Connection, row, `connection "${row.namespace}/${row.name}"`);
}

export function secretsToColumn(secrets: readonly SecretRef[]): unknown[] {
  return [...secrets];
}

export function policyRuleToRow(rule: PolicyRule): Row<typeof t.hubPolicyRules> {
  return {
    id: rule.id,
    targetKind: rule.target.kind,
    target: rule.target.kind === 'source' ? rule.target.namespace : rule.target.address,
    // NULL covers every connection; '' (never a connection's name) narrows to calls on none.
    connection: rule.connection === null ? '' : (rule.connection ?? null),
    effect: rule.effect,
    contract: rule.contract ?? null,
    createdAt: rule.createdAt,
  };
}

export function policyRuleFromRow(row: Row<typeof t.hubPolicyRules>): PolicyRule {
  const target =
    row.targetKind === 'source'
      ? { kind: 'source', namespace: row.target }
      : { kind: 'tool', address: row.target };
  return parseRecord(
    PolicyRule,
    {
      id: row.id,
      target,
      connection: row.connection === '' ? null : nullToUndefined(row.connection),
      effect: row.effect,
      contract: nullToUndefined(row.contract),
      createdAt: row.createdAt,
    },
    `policy rule ${row.id}`,
  );
}

export function runToRow(run: Run): Row<typeof t.hubRuns> {
  return { ...run, result: run.result ?? null, error: run.error ?? null };
}

/** A run's status and attempt number, as `getRunState` reads them. */
export function runStateFromRow(id: string, row: unknown): Pick<Run, 'status' | 'attempts'> {
  return parseRecord(RunState, row, `run ${id}`);
}

export function runFromRow(row: Row<typeof t.hubRuns>): Run {
  return parseRecord(
    StoredRun,
    { ...row, result: nullToUndefined(row.result), error: nullToUndefined(row.error) },
    `run ${row.id}`,
  );
}

export function journalFromRows(
  entry: Row<typeof t.hubJournal>,
  outcome: Row<typeof t.hubJournalOutcomes> | undefined,
): JournalEntry {
  const where = `journal entry ${entry.runId}#${entry.seq}`;
  const record: JournalEntry = {
    runId: entry.runId,
    seq: entry.seq,
    address: entry.address,
    connection: entry.connection,
    argsDigest: entry.argsDigest,
    decision: parseRecord(CallDecision, entry.decision, where),
    startedAt: entry.startedAt,
  };
  if (outcome) {
    record.outcome = parseRecord(StoredOutcome, outcome.outcome, where);
    record.settledAt = outcome.settledAt;
  }
  return record;
}

export function pendingFromRow(row: Row<typeof t.hubPendingInputs>): PendingInput {
  return parseRecord(PendingInput, row, `pending input ${row.id}`);
}

export function decisionFromRow(row: Row<typeof t.hubDecisions>): Decision {
  return parseRecord(Decision, row, `decision ${row.id}`);
}

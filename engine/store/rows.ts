/**
 * Records <-> rows. Every record leaving the store is parsed with its zod schema, so a row
 * that was tampered with or written by a broken build is reported as `corrupt` instead of
 * travelling on as a wrong type.
 */
import type { z } from 'zod';
import {
  CallDecision,
  CallOutcome,
  Connection,
  Decision,
  type JournalEntry,
  Manifest,
  PendingInput,
  PolicyRule,
  Run,
  type SecretRef,
  Source,
} from '../contracts.ts';
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

const nullToUndefined = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

export function sourceToRow(source: Source): Row<typeof t.hubSources> {
  const base = { namespace: source.namespace, addedAt: source.addedAt, updatedAt: source.updatedAt };
  return source.kind === 'mcp-stdio'
    ? {
        ...base,
        kind: source.kind,
        command: source.command,
        env: source.env,
        consent: source.consent,
        url: null,
        allowedHosts: null,
      }
    : {
        ...base,
        kind: source.kind,
        command: null,
        env: null,
        consent: null,
        url: source.url,
        allowedHosts: source.allowedHosts,
      };
}

export function sourceFromRow(row: Row<typeof t.hubSources>): Source {
  const base = { namespace: row.namespace, addedAt: row.addedAt, updatedAt: row.updatedAt };
  const record =
    row.kind === 'mcp-stdio'
      ? { ...base, kind: row.kind, command: row.command, env: row.env ?? {}, consent: row.consent }
      : { ...base, kind: row.kind, url: row.url, allowedHosts: row.allowedHosts };
  return parseRecord(Source, record, `source "${row.namespace}"`);
}

export function manifestFromRows(
  head: Row<typeof t.hubManifests>,
  tools: readonly Row<typeof t.hubTools>[],
): Manifest {
  return parseRecord(
    Manifest,
    {
      namespace: head.namespace,
      fetchedAt: head.fetchedAt,
      server: nullToUndefined(head.server),
      instructions: nullToUndefined(head.instructions),
      tools: tools.map((tool) => ({
        address: tool.address,
        name: tool.name,
        title: nullToUndefined(tool.title),
        description: nullToUndefined(tool.description),
        inputSchema: tool.inputSchema,
        outputSchema: nullToUndefined(tool.outputSchema),
        annotations: nullToUndefined(tool.annotations),
        contract: tool.contract,
      })),
    },
    `manifest of "${head.namespace}"`,
  );
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
    connection: rule.connection ?? null,
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
      connection: nullToUndefined(row.connection),
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

export function runFromRow(row: Row<typeof t.hubRuns>): Run {
  return parseRecord(
    Run,
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
    record.outcome = parseRecord(CallOutcome, outcome.outcome, where);
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

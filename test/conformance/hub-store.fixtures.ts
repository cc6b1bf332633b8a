/**
 * What the HubStore contract's suites share: fixed records, a fixed time, the latest schema
 * version, and `rejectsWith` for a HubError's code.
 */
import { expect } from 'vitest';
import type { JournalEntry, PendingInput, Run } from '../../engine/contracts/runs.ts';
import type { Source } from '../../engine/contracts/sources.ts';
import type { HubError } from '../../engine/errors.ts';
import journal from '../../migrations/meta/_journal.json';
import { hubErrorOf } from '../hub-error.ts';

export const T0 = 1_800_000_000_000;
/** The number of migrations in migrations/ (meta/_journal.json). */
export const LATEST_SCHEMA_VERSION = journal.entries.length;
export const digest = (c: string) => c.repeat(64);

export const fixtures = {
  stdio: (namespace = 'memory'): Source => ({
    kind: 'mcp-stdio',
    namespace,
    command: ['npx', '-y', '@modelcontextprotocol/server-memory'],
    env: {},
    consent: null,
    addedAt: T0,
    updatedAt: T0,
  }),
  http: (namespace = 'linear'): Source => ({
    kind: 'mcp-http',
    namespace,
    url: 'https://mcp.linear.app/mcp',
    allowedHosts: ['mcp.linear.app'],
    addedAt: T0,
    updatedAt: T0,
  }),
  run: (id = 'run_1'): Run => ({
    id,
    profile: 'default',
    status: 'running',
    code: 'return 1',
    seed: 'seed-1',
    clockOrigin: T0,
    attempts: 1,
    logs: [],
    notices: [],
    createdAt: T0,
    updatedAt: T0,
  }),
  start: (runId: string, seq: number): Omit<JournalEntry, 'outcome' | 'settledAt'> => ({
    runId,
    seq,
    address: 'linear.create_issue',
    connection: null,
    argsDigest: digest('a'),
    decision: { effect: 'allow', by: 'policy', reason: 'reads: declared read-only' },
    startedAt: T0 + seq,
  }),
  pending: (runId: string, seq: number, id = `pending_${seq}`): PendingInput => ({
    id,
    runId,
    seq,
    kind: 'approval',
    address: 'linear.create_issue',
    connection: 'work',
    summary: 'Create an issue.',
    argsPreview: '{"title":"x"}',
    argsDigest: digest('a'),
    contract: digest('c'),
    reason: 'writes: not declared read-only',
    createdAt: T0,
    expiresAt: T0 + 86_400_000,
  }),
};

export async function rejectsWith(code: HubError['code'], body: () => unknown): Promise<void> {
  expect((await hubErrorOf(body)).code).toBe(code);
}

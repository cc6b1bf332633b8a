/**
 * The envelope's pending inputs: a call waiting for a connection tells the model the exact way a
 * person adds it, naming a connection other than `default`.
 */
import { describe, expect, it } from 'vitest';
import { hostedWording } from '../../durable-objects/hosted-wording.ts';
import type { PendingInput, Run } from '../../engine/contracts/runs.ts';
import { buildEnvelope } from '../../engine/runs/envelope.ts';
import { localWording } from '../../local/wording.ts';

const run: Run = {
  id: 'run_1',
  profile: 'default',
  status: 'awaiting_input',
  code: '',
  seed: 'seed',
  clockOrigin: 0,
  attempts: 1,
  logs: [],
  notices: [],
  createdAt: 0,
  updatedAt: 0,
};

function waitingOn(connection: string | null): PendingInput {
  return {
    id: 'pending_1',
    runId: run.id,
    seq: 0,
    kind: 'connection',
    address: 'board.list_posts',
    connection,
    summary: 'List posts.',
    argsPreview: '{}',
    argsDigest: null,
    contract: null,
    reason: 'no connection',
    createdAt: 0,
    expiresAt: 1,
  };
}

const messageFor = (connection: string | null, wording = localWording) =>
  buildEnvelope({
    run,
    journal: [],
    pending: [waitingOn(connection)],
    inlineResultBytes: 1000,
    retryAfterMs: 0,
    wording,
  }).pending?.[0]?.message;

describe('a call waiting for a connection', () => {
  it('names --connection for a connection other than default', () => {
    expect(messageFor('work')).toBe(
      'A person must add a connection for board: `capabilities hub auth board --connection work`. Then resume.',
    );
    expect(messageFor('work', hostedWording)).toContain('"board/work"');
  });

  it('names no connection for the default one', () => {
    expect(messageFor('default')).toBe(
      'A person must add a connection for board: `capabilities hub auth board`. Then resume.',
    );
    expect(messageFor(null)).toBe(
      'A person must add a connection for board: `capabilities hub auth board`. Then resume.',
    );
  });
});

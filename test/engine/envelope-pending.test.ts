/**
 * The envelope's pending inputs: a call waiting for a connection tells the model the exact way a
 * person signs it in again (or adds one, when none is named), naming a connection other than
 * `default`.
 */
import { describe, expect, it } from 'vitest';
import { hostedWording } from '../../durable-objects/hosted-wording.ts';
import type { PendingInput, Run } from '../../engine/contracts/runs.ts';
import { buildEnvelope } from '../../engine/runs/envelope.ts';
import { summaryLine } from '../../engine/surface/index.ts';
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
      'A person must sign in again to connection board/work: `capabilities hub auth board --connection work`. Then resume.',
    );
    expect(messageFor('work', hostedWording)).toContain('"board/work"');
  });

  it('names no connection for the default one', () => {
    expect(messageFor('default')).toBe(
      'A person must sign in again to connection board/default: `capabilities hub auth board`. Then resume.',
    );
    expect(messageFor(null)).toBe(
      'A person must add a connection for board: `capabilities hub auth board`. Then resume.',
    );
  });

  it('says which connection must be signed in again, in the envelope and its one line', () => {
    const envelope = buildEnvelope({
      run,
      journal: [],
      pending: [waitingOn('work')],
      inlineResultBytes: 1000,
      retryAfterMs: 0,
      wording: hostedWording,
    });
    expect(envelope.pending?.[0]?.connection).toBe('work');
    expect(summaryLine(envelope, hostedWording)).toContain(
      `the connection board/work must be signed in again (${hostedWording.signInAgain('board', 'work')})`,
    );
  });
});

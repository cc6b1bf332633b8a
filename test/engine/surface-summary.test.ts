/**
 * Execute's one line of text, for every status, as exact strings so they double as documentation
 * of what a model that reads only text sees.
 */
import { describe, expect, it } from 'vitest';
import type { ExecuteEnvelope } from '../../engine/contracts/envelope.ts';
import { summaryLine } from '../../engine/surface/index.ts';
import { localWording } from '../../local/wording.ts';

const base = { runId: 'run_a1', calls: [] };

describe('summaryLine', () => {
  it.each<[string, ExecuteEnvelope, string]>([
    [
      'a result',
      { ...base, status: 'completed', result: { posted: { id: 1 } } },
      'run_a1 completed: {"posted":{"id":1}}',
    ],
    ['no return value', { ...base, status: 'completed' }, 'run_a1 completed with no return value.'],
    [
      'logs, notices and a cut, on the same line',
      {
        ...base,
        status: 'completed',
        result: 'a\nb',
        logs: ['one\ntwo'],
        notices: ['took the body of the fenced block'],
        truncated: { logs: true },
      },
      'run_a1 completed: "a\\nb" Logs: ["one\\ntwo"] Notices: ["took the body of the fenced block"] (logs cut to the inline budget; return less)',
    ],
    [
      'a failure after calls ran',
      {
        ...base,
        status: 'failed',
        error: { code: 'TypeError', message: 'board.pst is not\n a tool', hint: 'did you mean board.post?' },
        calls: [
          { address: 'board.post', ok: true, ms: 1 },
          { address: 'board.post', ok: true, ms: 1 },
          { address: 'memory.read_graph', ok: false, ms: 2 },
        ],
      },
      'run_a1 failed: TypeError: board.pst is not a tool Hint: did you mean board.post? Calls that ran: board.post ×2 ok, memory.read_graph failed.',
    ],
    [
      'two calls waiting for a person',
      {
        ...base,
        status: 'awaiting_approval',
        pending: [
          { id: 'p1', kind: 'approval', address: 'board.post', summary: '' },
          { id: 'p2', kind: 'approval', address: 'github.createIssue', summary: '' },
        ],
      },
      'run_a1 awaiting_approval: board.post and github.createIssue need a person\'s decision. Tell the user to run `capabilities hub approve run_a1`, then call execute({ "resume": "run_a1" }).',
    ],
    [
      'a connection to add',
      {
        ...base,
        status: 'awaiting_connection',
        pending: [{ id: 'p1', kind: 'connection', address: 'github.createIssue', summary: '' }],
      },
      'run_a1 awaiting_connection: github needs a connection added (`capabilities hub auth github`). Tell the user, then call execute({ "resume": "run_a1" }).',
    ],
    [
      'a connection to sign in again',
      {
        ...base,
        status: 'awaiting_connection',
        pending: [
          { id: 'p1', kind: 'connection', address: 'board.list_posts', summary: '', connection: 'work' },
        ],
      },
      'run_a1 awaiting_connection: the connection board/work must be signed in again (`capabilities hub auth board --connection work`). Tell the user, then call execute({ "resume": "run_a1" }).',
    ],
    ['a cancelled run', { ...base, status: 'cancelled' }, 'run_a1 cancelled.'],
  ])('%s', (_title, envelope, line) => {
    expect(summaryLine(envelope, localWording)).toBe(line);
    expect(summaryLine(envelope, localWording)).not.toContain('\n');
  });
});

/**
 * The closed error codes (engine/contracts/error-codes.ts): a run's and a call's codes are read
 * from the store through these schemas, so a code an older hub stored still loads, as
 * `tool_error` (a run's) or `upstream_error` (a call's); a guest's own code ends a run as itself
 * only when it is one of the run codes.
 */
import { describe, expect, it } from 'vitest';
import {
  RUN_ERROR_CODES,
  RunErrorCode,
  runErrorCode,
  TOOL_ERROR_CODES,
  ToolErrorCode,
} from '../../engine/contracts/error-codes.ts';
import { CallOutcome, Run } from '../../engine/contracts/runs.ts';

const run = {
  id: 'run_1',
  profile: 'default',
  status: 'failed',
  code: 'return 1',
  seed: 'ab',
  clockOrigin: 0,
  attempts: 1,
  logs: [],
  notices: [],
  createdAt: 0,
  updatedAt: 0,
};

describe('error codes', () => {
  it('every tool code is a run code too (an uncaught ToolError ends the run with its code)', () => {
    for (const code of TOOL_ERROR_CODES) expect(RUN_ERROR_CODES).toContain(code);
  });

  it('a known code reads as itself', () => {
    expect(RunErrorCode.parse('divergence')).toBe('divergence');
    expect(ToolErrorCode.parse('approval_denied')).toBe('approval_denied');
  });

  it('a run stored with a code this hub does not know reads as tool_error', () => {
    const stored = Run.parse({ ...run, error: { code: 'made_up_by_an_old_hub', message: 'm', hint: 'h' } });
    expect(stored.error).toEqual({ code: 'tool_error', message: 'm', hint: 'h' });
  });

  it('a call outcome stored with a code this hub does not know reads as upstream_error', () => {
    const stored = CallOutcome.parse({
      ok: false,
      error: { code: 'teapot', message: 'm', status: 418, retryable: false },
      ms: 3,
    });
    expect(stored).toEqual({
      ok: false,
      error: { code: 'upstream_error', message: 'm', status: 418, retryable: false },
      ms: 3,
    });
  });

  it("a guest's own code ends a run as itself when it is a run code, else as tool_error", () => {
    expect(runErrorCode('denied')).toBe('denied');
    expect(runErrorCode('uncaught')).toBe('uncaught');
    expect(runErrorCode('my_own_code')).toBe('tool_error');
  });
});

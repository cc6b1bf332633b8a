/** A stdio answer that is no JSON-RPC message: the one call waiting fails; with several, none is blamed. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isHubError } from '../../engine/errors.ts';
import { malformedError, noteMalformed } from '../../engine/sources/malformed-answer.ts';

/** The error the SDK's read buffer reports for `{"jsonrpc":"2.0","id":3,"result":42}`. */
const schemaError = z.object({ result: z.object({}) }).safeParse({ result: 42 }).error as Error;

describe('a malformed answer', () => {
  it('fails the one call waiting, saying what the server sent', () => {
    const call = new AbortController();
    noteMalformed({ waiting: new Set([call]) }, schemaError, 'board');
    const error = malformedError(call);
    expect(isHubError(error)).toBe(true);
    expect(error?.message).toMatch(/the server for "board" answered with a message that is not valid MCP/);
  });

  it('blames no call when several wait, since which one it answered is unknown', () => {
    const calls = [new AbortController(), new AbortController()];
    noteMalformed({ waiting: new Set(calls) }, schemaError, 'board');
    expect(calls.map(malformedError)).toEqual([undefined, undefined]);
  });

  it('leaves the call alone for any other transport error', () => {
    const call = new AbortController();
    noteMalformed(
      { waiting: new Set([call]) },
      new Error('ReadBuffer exceeded maximum size of 10 bytes'),
      'board',
    );
    expect(malformedError(call)).toBeUndefined();
  });

  it('is not the cause of a call the run itself aborted', () => {
    const call = new AbortController();
    call.abort(new Error('the run was cancelled'));
    expect(malformedError(call)).toBeUndefined();
  });
});

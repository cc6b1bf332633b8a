/**
 * A stdio answer whose result or error JSON-RPC does not allow (engine/connectors/malformed-answer.ts),
 * with the errors the SDK's own read buffer reports for real lines: the one call waiting fails;
 * with several, none is blamed; JSON on stdout that is no answer (a log line, a bare number, a
 * malformed notification, a message without `jsonrpc`) blames nothing.
 */
import { ReadBuffer } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { malformedError, noteMalformed } from '../../engine/connectors/malformed-answer.ts';
import { isHubError } from '../../engine/errors.ts';

/** The error the SDK's read buffer throws for `line`. */
function readError(line: string): Error {
  const buffer = new ReadBuffer();
  buffer.append(Buffer.from(`${line}\n`));
  try {
    buffer.readMessage();
  } catch (error) {
    return error as Error;
  }
  throw new Error(`the SDK read ${line} without an error`);
}

const NO_RESULT = readError('{"jsonrpc":"2.0","id":3,"result":42}');

describe('a malformed answer', () => {
  it('fails the one call waiting, saying so', () => {
    for (const line of ['{"jsonrpc":"2.0","id":3,"result":42}', '{"jsonrpc":"2.0","id":3,"error":"bad"}']) {
      const call = new AbortController();
      noteMalformed({ waiting: new Set([call]) }, readError(line), 'board');
      const error = malformedError(call);
      expect(isHubError(error), line).toBe(true);
      expect(error?.message).toMatch(/the server for "board" answered with a message that is not valid MCP/);
    }
  });

  it('blames no call when several wait, since which one it answered is unknown', () => {
    const calls = [new AbortController(), new AbortController()];
    noteMalformed({ waiting: new Set(calls) }, NO_RESULT, 'board');
    expect(calls.map(malformedError)).toEqual([undefined, undefined]);
  });

  it('blames no call for JSON on stdout that is no answer', () => {
    for (const line of [
      '{"level":30,"msg":"listening"}',
      '42',
      '"hello"',
      '[1,2]',
      '{"jsonrpc":"2.0","method":5}',
      '{"id":3,"result":42}',
    ]) {
      const call = new AbortController();
      noteMalformed({ waiting: new Set([call]) }, readError(line), 'board');
      expect(malformedError(call), line).toBeUndefined();
    }
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

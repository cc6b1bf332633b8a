/**
 * What a failed call's outcome says of its request (engine/connectors/call-delivery.ts,
 * call-outcome.ts), with the errors the MCP SDK client and fetch really throw: an answer (a
 * JSON-RPC error, an unreadable result, an HTTP refusal) is `upstream_error`; a request that left
 * and got no answer (a timeout, a closed connection, a reset, a 5xx) is `outcome_unknown`; one
 * that never left (not connected, a refused connection, a name that does not resolve) is
 * `upstream_unavailable`. And an answer that breaks the tool's declared output schema is the
 * answer, with a notice (output-check.ts).
 */
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { deliveryOf } from '../../engine/connectors/call-delivery.ts';
import { outputMismatch } from '../../engine/connectors/output-check.ts';
import type { ManifestTool } from '../../engine/contracts/sources.ts';
import { HubError } from '../../engine/errors.ts';
import { createScrubber, SCRUBBED } from '../../engine/secrets/scrub.ts';
import { answeredCall, failedCall } from '../../engine/sources/call-outcome.ts';

/** What Node's fetch throws for a system error on `syscall` (connect, getaddrinfo, read, write). */
const systemError = (code: string, syscall = 'connect') =>
  Object.assign(new Error(`${syscall} ${code} 203.0.113.7:443`), { code, syscall });
const fetchFailed = (code: string, syscall?: string) =>
  new TypeError('fetch failed', { cause: systemError(code, syscall) });

const tool = (annotations?: ManifestTool['annotations']): ManifestTool => ({
  address: 'ledger.add_entry',
  name: 'add_entry',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
  ...(annotations ? { annotations } : {}),
  contract: 'a'.repeat(64),
});
const scrub = createScrubber(['tk_secret_of_the_hub_0123']);
const ms = 12;

describe('what a failure proves of its request', () => {
  it.each([
    ['a JSON-RPC error from the server', new ProtocolError(-32603, 'Internal error'), 'answered'],
    ['a result the SDK refused', new SdkError(SdkErrorCode.InvalidResult, 'Invalid result'), 'answered'],
    [
      'an HTTP refusal',
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'Not Found', { status: 404 }),
      'answered',
    ],
    ['a timeout', new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'), 'unknown'],
    ['a closed connection', new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'), 'unknown'],
    [
      'an HTTP 500',
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'Internal', { status: 500 }),
      'unknown',
    ],
    [
      'an HTTP 408',
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'Timeout', { status: 408 }),
      'unknown',
    ],
    ['a reset connection', fetchFailed('ECONNRESET'), 'unknown'],
    ['an error nobody knows', new Error('something odd'), 'unknown'],
    ['not connected', new SdkError(SdkErrorCode.NotConnected, 'Not connected'), 'unsent'],
    ['a refused connection', fetchFailed('ECONNREFUSED'), 'unsent'],
    ['a name that does not resolve', fetchFailed('ENOTFOUND', 'getaddrinfo'), 'unsent'],
    ['an unreachable host on a connection already open', fetchFailed('EHOSTUNREACH', 'read'), 'unknown'],
    [
      'a HubError tagged by its connector',
      new HubError('denied', 'refused', { delivery: 'unsent' }),
      'unsent',
    ],
    [
      'an untagged HubError over a JSON-RPC error',
      new HubError('unavailable', 'failed', { cause: new ProtocolError(-32000, 'no') }),
      'answered',
    ],
  ] as const)('%s: %s', (_what, error, delivery) => {
    expect(deliveryOf(error)).toBe(delivery);
  });
});

describe('the outcome a failure is recorded with', () => {
  it('answered: upstream_error, the call was made, not retryable', () => {
    const error = new HubError('unavailable', 'the server for "ledger" failed on add_entry: no', {
      delivery: 'answered',
    });
    expect(failedCall(error, tool(), ms, scrub)).toEqual({
      ok: false,
      error: {
        code: 'upstream_error',
        message: 'the server for "ledger" failed on add_entry: no',
        retryable: false,
        hint: 'the call was made and the server answered it: read what it said before calling again',
      },
      ms,
    });
  });

  it('sent, no answer: outcome_unknown; retryable only for a tool that says it does no harm twice', () => {
    const error = new HubError('unavailable', 'the server for "ledger" did not answer in time', {
      delivery: 'unknown',
    });
    expect(failedCall(error, tool(), ms, scrub)).toEqual({
      ok: false,
      error: {
        code: 'outcome_unknown',
        message:
          'the server for "ledger" did not answer in time (the call was sent; whether it happened is unknown)',
        retryable: false,
        hint: 'it may or may not have happened, and the hub never sends it again: check upstream before trying again',
      },
      ms,
    });
    expect(failedCall(error, tool({ idempotentHint: true }), ms, scrub)).toMatchObject({
      error: { code: 'outcome_unknown', retryable: true },
    });
    // Untagged and unproven: taken as sent.
    expect(failedCall(new Error('odd'), tool(), ms, scrub)).toMatchObject({
      error: { code: 'outcome_unknown' },
    });
  });

  it('never sent: upstream_unavailable, said so, safe to call again', () => {
    const error = new HubError('unavailable', 'could not reach the server for "ledger"', {
      delivery: 'unsent',
    });
    expect(failedCall(error, tool(), ms, scrub)).toEqual({
      ok: false,
      error: {
        code: 'upstream_unavailable',
        message: 'could not reach the server for "ledger" (the call was not sent)',
        retryable: true,
      },
      ms,
    });
  });

  it('over a cap: result_too_large, the call was made', () => {
    const error = new HubError('limit', 'the server sent more than the 16-byte response cap', {
      delivery: 'answered',
    });
    expect(failedCall(error, tool(), ms, scrub)).toMatchObject({
      error: { code: 'result_too_large', retryable: false },
    });
  });
});

describe('an answer that breaks its declared output schema', () => {
  it('is the answer, with a notice naming the mismatch; the declared schema is kept', () => {
    const outcome = answeredCall(
      {
        content: [{ type: 'text', text: '{"id":"entry-1"}' }],
        structuredContent: { id: 'entry-1', by: 'tk_secret_of_the_hub_0123' },
      },
      tool(),
      ms,
      scrub,
    );
    expect(outcome).toEqual({
      ok: true,
      value: { id: 'entry-1', by: SCRUBBED },
      notice:
        'ledger.add_entry answered with structured content that does not match its declared output schema ' +
        '(#: Property "id" does not match schema.; #/id: Instance type "string" is invalid. Expected "number".); ' +
        'the call was made, and its answer is passed on as it came',
      ms,
    });
  });

  it('answered without structured content: its text, and a notice', () => {
    const outcome = answeredCall({ content: [{ type: 'text', text: 'added' }] }, tool(), ms, scrub);
    expect(outcome).toMatchObject({
      ok: true,
      value: 'added',
      notice: expect.stringMatching(
        /^ledger\.add_entry declares an output schema but answered without structured content/,
      ),
    });
  });

  it('scrubs what the validator quotes of the answer before it is cut', () => {
    // The validator's message quotes the key; cut at 300 characters, the secret would straddle the cut.
    // Another schema is another contract (the digest covers the output schema).
    const closed = {
      ...tool(),
      outputSchema: { type: 'object', additionalProperties: false },
      contract: 'b'.repeat(64),
    };
    const outcome = answeredCall(
      { structuredContent: { [`${'x'.repeat(277)}tk_secret_of_the_hub_0123`]: 1 } },
      closed,
      ms,
      scrub,
    );
    const notice = outcome.ok ? (outcome.notice ?? '') : '';
    expect(notice).toContain(SCRUBBED);
    expect(notice).not.toMatch(/tk_secret/);
  });

  it("leaves a schema's regular expressions out of the check: a server cannot make it backtrack for ever", () => {
    const evil = {
      ...tool(),
      outputSchema: { type: 'object', properties: { id: { type: 'string', pattern: '^(a+)+$' } } },
      contract: 'c'.repeat(64),
    };
    const answer = { structuredContent: { id: `${'a'.repeat(40)}!` } };
    expect(outputMismatch(evil, answer, (text) => text)).toBeUndefined();
  });

  it('keeps to it, declares none, or is an error result: no notice', () => {
    expect(outputMismatch(tool(), { structuredContent: { id: 3 } }, (text) => text)).toBeUndefined();
    const { outputSchema: _none, ...undeclared } = tool();
    expect(outputMismatch(undeclared, { structuredContent: { id: 'x' } }, (text) => text)).toBeUndefined();
    expect(
      outputMismatch(tool(), { content: [{ type: 'text', text: 'no' }], isError: true }, (text) => text),
    ).toBeUndefined();
  });
});

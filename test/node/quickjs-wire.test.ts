/**
 * The QuickJS bridge's wire form (local/quickjs/fields.ts, local/quickjs/outbox.ts): requests and
 * answers round-trip exactly, whatever the text holds, and a malformed or hostile text is read
 * only up to its last well-formed record, never past it.
 */
import { describe, expect, it } from 'vitest';
import { encodeAnswers, readAnswers } from '../../local/quickjs/fields.ts';
import { encodeRequests, readRequests } from '../../local/quickjs/outbox.ts';
import type { GuestRequest } from '../../local/quickjs/protocol.ts';

const requests: GuestRequest[] = [
  { kind: 'call', id: 0, address: 'board.post', args: '{"text":"12:34 ümlaut 🚀"}', connection: null },
  { kind: 'call', id: 1, address: 'github.create_issue', args: '{}', connection: 'work "quoted": 9:x' },
  { kind: 'lookup', id: 2, request: '{"kind":"search","query":"l1:2"}' },
  { kind: 'call', id: 3, address: 'memory.read_graph', args: '', connection: '' },
];

describe('the QuickJS bridge wire form', () => {
  it('round-trips requests, separators and unicode included', () => {
    expect(readRequests(encodeRequests(requests))).toEqual({ requests, complete: true });
    expect(readRequests('')).toEqual({ requests: [], complete: true });
  });

  it('round-trips answers', () => {
    const texts = ['{"kind":"value","value":1}', '', '3:abc', '🚀'.repeat(100)];
    expect(readAnswers(encodeAnswers([5, 6, 7, 8], texts))).toEqual({ ids: [5, 6, 7, 8], texts });
  });

  it('stops at the first malformed record and says so', () => {
    const good = encodeRequests(requests.slice(0, 1));
    for (const bad of [
      'x1:0', // an unknown kind
      'c1:01', // a field cut short
      'c99999999999:0', // a length of more digits than allowed
      'c:0', // no length
      'c1:a10:board.post2:{}', // an id that is not a number
      'c-1:1', // a negative length
      'l1:0', // a lookup without its request
      'd1:010:board.post2:{}', // a connection field missing
    ]) {
      const reading = readRequests(good + bad);
      expect(reading, bad).toEqual({ requests: requests.slice(0, 1), complete: false });
    }
  });

  it('reads a connection that is not a JSON string as an empty name (which the gate refuses)', () => {
    const text = `d${'1:0'}${'10:board.post'}${'2:{}'}${'3:abc'}`;
    expect(readRequests(text).requests[0]).toMatchObject({ connection: '' });
  });

  it('keeps the answers before a malformed one', () => {
    const good = encodeAnswers([1], ['ok']);
    expect(readAnswers(`${good}2:99`)).toEqual({ ids: [1], texts: ['ok'] });
    expect(readAnswers(`${good}x`)).toEqual({ ids: [1], texts: ['ok'] });
  });
});

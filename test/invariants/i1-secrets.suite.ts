/**
 * I1, "A secret value never enters the sandbox, a journal, a log, telemetry or a result", as one
 * suite: every channel a runner read against every encoding of its secret
 * (test/invariants/i1-kit.ts), after a check that the attack reached the channel. Two runners
 * make the attacks their host allows and read the channels: test/invariants/i1-secrets.test.ts (a
 * local hub the CLI made, whose hostile upstream echoes a connection's credential, through the
 * CLI, MCP, the pages and an OAuth refresh) and test/invariants/i1-secrets.workers.test.ts (the
 * hosted hub in workerd, its own HUB_TOKEN through /mcp and the stored runs).
 *
 * | Each channel the runner read | Held                                                           |
 * | ---------------------------- | -------------------------------------------------------------- |
 * | the attack reached it        | it holds the mark the runner names (`[secret]` where a form was) |
 * | each encoding of the secret  | none in it: raw, base64(url), URL, form, hex, JSON, HTML, Basic |
 * | two halves, returned apart   | known gap (`it.fails`): the model joins them                   |
 *
 * There is no telemetry to read: the hub sends none.
 */
import { describe, expect, it } from 'vitest';
import { forbidden } from './i1-kit.ts';
import type { Host } from './invariant-hub.ts';

export interface SecretsHub {
  /** The host, in the suite's title. */
  name: Host;
  /** The secret the attacks try to get out. */
  secret: string;
  /**
   * Each channel, and what it must show to prove the attack reached it (an empty mark: the
   * channel may be empty, as a log with nothing to say).
   */
  channels: [channel: string, reached: string][];
  /** What a channel showed, as the person or the model reads it: the runner fills it before the suite. */
  read(channel: string): string | undefined;
  /** Two results, each a half of the raw secret, joined as the model would. */
  split(): string;
}

export function describeSecrets(hub: SecretsHub): void {
  describe(`I1 on the ${hub.name} hub: no channel holds a form of the secret`, () => {
    describe.each(hub.channels)('%s', (channel, reached) => {
      it('was read, and the attack reached it', () => {
        expect(hub.read(channel)).toContain(reached);
      });
      it.each(forbidden(hub.secret))('holds no $name form of the secret', ({ value }) => {
        expect(hub.read(channel)).not.toContain(value);
      });
    });

    describe('split across two results', () => {
      // Known gap: each half alone is no form of the secret, so neither result is scrubbed and the
      // model joins them. Scrubbing every long-enough piece of each secret (say 8 characters and
      // up) would close it, at the cost of a much larger pattern and a scrubber the spec does not
      // describe yet.
      it.fails('the model cannot join the two halves into the secret', () => {
        expect(hub.split()).not.toContain(hub.secret);
      });
    });
  });
}

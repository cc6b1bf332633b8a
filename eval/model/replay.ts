/**
 * The replay model: plays a recorded transcript's turns in order (their blocks and their usage,
 * as the API or the tokenizer gave them when recorded), so the harness, the checkers and the
 * accounting run end to end with no network and no key. The tool calls it replays are made again,
 * for real, against a fresh world: a transcript whose calls no longer do the job fails its checker.
 */
import { readFileSync } from 'node:fs';
import type { ModelAdapter, ModelTurn } from './messages.ts';
import type { Transcript } from './transcript.ts';

export class ReplayAdapter implements ModelAdapter {
  readonly model: string;
  private next = 0;
  private readonly transcript: Transcript;

  constructor(transcript: Transcript) {
    this.transcript = transcript;
    this.model = transcript.model;
  }

  static load(path: string): ReplayAdapter {
    return new ReplayAdapter(JSON.parse(readFileSync(path, 'utf8')) as Transcript);
  }

  async turn(): Promise<ModelTurn> {
    const turn = this.transcript.turns[this.next++];
    if (!turn) {
      throw new Error(
        `the transcript of ${this.transcript.task} (${this.transcript.arm}) has ${this.transcript.turns.length} turns and the run asked for more`,
      );
    }
    return { content: turn.content, stopReason: turn.stopReason, usage: turn.usage };
  }
}

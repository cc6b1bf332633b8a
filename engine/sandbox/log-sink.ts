/**
 * The host's copy of the log budget. The prelude counts too, but a guest that reached its log
 * primitive directly would not, so whatever arrives here is counted again: lines are kept while
 * their UTF-8 bytes (plus one per line break) fit in `logBytes`, and everything after is
 * dropped and marked truncated.
 */
import { utf8Length } from '../pipeline/utf8.ts';

export class LogSink {
  readonly lines: string[] = [];
  #room: number;
  #truncated = false;

  constructor(logBytes: number) {
    this.#room = logBytes;
  }

  get truncated(): boolean {
    return this.#truncated;
  }

  add(line: unknown): void {
    if (typeof line !== 'string' || this.#room <= 0) {
      this.#truncated = true;
      return;
    }
    const bytes = utf8Length(line, this.#room) + 1;
    if (bytes > this.#room) {
      this.#truncated = true;
      this.#room = 0;
      return;
    }
    this.#room -= bytes;
    this.lines.push(line);
  }

  /** Marks output the guest dropped itself. */
  dropped(count: number): void {
    if (count > 0) this.#truncated = true;
  }
}

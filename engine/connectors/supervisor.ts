/**
 * Supervision of stdio servers, per namespace (runtime-neutral; the host hands in stderr): whether one runs, how often it was restarted,
 * the tail of its stderr (for doctor and for error messages), and the backoff before the next
 * start after a crash (0.5 s doubling to 30 s; reset by a successful call).
 */
import type { Clock } from '../ports.ts';

/** The part of a stderr stream supervision reads. */
export interface StderrLike {
  on(event: 'data', listener: (chunk: { toString(): string }) => void): unknown;
}

const TAIL_BYTES = 4096;
const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 30_000;

export interface Supervision {
  running: boolean;
  restarts: number;
  stderrTail: string;
}

interface State extends Supervision {
  failures: number;
  notBefore: number;
}

export class Supervisor {
  readonly #states = new Map<string, State>();
  readonly #clock: Clock;

  /** Backoff is measured on `clock` (the engine reads no time of its own). */
  constructor(clock: Clock) {
    this.#clock = clock;
  }

  get(namespace: string): Supervision | undefined {
    const state = this.#states.get(namespace);
    return state && { running: state.running, restarts: state.restarts, stderrTail: state.stderrTail };
  }

  /** Keeps the last 4 KB of what the server writes to stderr. */
  watch(namespace: string, stream: StderrLike | null): void {
    const state = this.#state(namespace);
    stream?.on('data', (chunk) => {
      state.stderrTail = keepTail(state.stderrTail + chunk.toString());
    });
  }

  started(namespace: string): void {
    const state = this.#state(namespace);
    if (state.failures > 0) state.restarts++;
    state.running = true;
  }

  /** The server went away without being asked to: the next start waits out the backoff. */
  exited(namespace: string): void {
    this.failed(namespace);
  }

  failed(namespace: string): void {
    const state = this.#state(namespace);
    state.running = false;
    state.failures++;
    state.notBefore =
      this.#clock.now() + Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** (state.failures - 1));
  }

  succeeded(namespace: string): void {
    const state = this.#state(namespace);
    state.failures = 0;
    state.notBefore = 0;
  }

  async waitForBackoff(namespace: string): Promise<void> {
    const wait = this.#state(namespace).notBefore - this.#clock.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  #state(namespace: string): State {
    let state = this.#states.get(namespace);
    if (!state) {
      state = { running: false, restarts: 0, stderrTail: '', failures: 0, notBefore: 0 };
      this.#states.set(namespace, state);
    }
    return state;
  }
}

/**
 * The last TAIL_BYTES of `text`, from a line's start: a tail cut mid-line could begin in the middle
 * of a secret, and a piece of a secret no longer matches the scrubber.
 */
export function keepTail(text: string): string {
  if (text.length <= TAIL_BYTES) return text;
  const cut = text.slice(-TAIL_BYTES);
  const lineStart = cut.indexOf('\n');
  return lineStart === -1 ? '' : cut.slice(lineStart + 1);
}

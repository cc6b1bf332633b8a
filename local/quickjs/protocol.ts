/**
 * Messages between QuickJsSandbox (the host thread) and a QuickJS worker thread. One attempt at
 * a time per worker. Everything that comes from the guest is a string or a number: the host
 * parses and checks it (engine/sandbox/host-bridge.ts), never the worker's word for it.
 *
 * Traffic is batched by turn (one stretch of guest execution): a turn's calls, lookups and log
 * lines leave in one message, and answers that are ready together arrive in one message,
 * delivered in one turn. Each message costs a thread hop; a turn costs QuickJS work. The two
 * messages of every bridged call are bare strings (fields.ts), the cheapest to post.
 */

/**
 * Host -> worker. A bare string is a batch of answers (`encodeAnswers`: each call's id, then
 * its answer's JSON text, see HostBridge).
 */
export type ToWorker =
  | string
  | { type: 'run'; code: string; config: string; computeMs: number }
  | { type: 'stop' };

/** What the guest handed the host in one turn, in the guest's order. */
export type GuestRequest =
  | { kind: 'call'; id: number; address: string; args: string; connection: string | null }
  | { kind: 'lookup'; id: number; request: string };

/** How an attempt ended, as the worker saw it. */
export type WorkerEnding =
  /** The prelude's report (JSON text). */
  | { kind: 'report'; text: string }
  /** The model's code did not compile. */
  | { kind: 'syntax'; name: string; message: string; stack: string }
  /** The prelude could not set up (e.g. a namespace colliding with a global). */
  | { kind: 'setup'; message: string }
  | { kind: 'compute' }
  | { kind: 'memory' }
  | { kind: 'stack' }
  /** Nothing pending and the code still waiting (the prelude normally reports this first). */
  | { kind: 'deadlock' }
  /** The worker itself failed; it must not be reused. */
  | { kind: 'crash'; message: string };

/**
 * Worker -> host. A bare string is one turn's requests with no log lines; `turn` is one with
 * log lines (its requests may be empty). Requests are in the outbox's form (outbox.ts).
 */
export type FromWorker =
  | string
  | { type: 'ready' }
  | { type: 'turn'; requests: string; lines: string[] }
  /** `recycle`: the worker's QuickJS is no longer trustworthy (a limit hit, a leak, an abort). */
  | { type: 'done'; ending: WorkerEnding; recycle: boolean }
  | { type: 'stopped'; recycle: boolean }
  /** Cleaning up after an attempt failed: the worker must not run another. */
  | { type: 'poisoned' };

/** What a worker is started with. */
export interface WorkerSetup {
  memoryBytes: number;
}

/**
 * Messages between QuickJsSandbox (the host thread) and a QuickJS worker thread. One attempt at
 * a time per worker. Everything that comes from the guest is a string or a number: the host
 * parses and checks it (engine/prelude/call-gate.ts), never the worker's word for it.
 */

/** Host -> worker. */
export type ToWorker =
  | { type: 'run'; code: string; config: string; computeMs: number }
  | { type: 'answer'; id: number; text: string }
  | { type: 'stop' };

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

/** Worker -> host. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'call'; id: number; address: string; args: string; connection: string | null }
  | { type: 'lookup'; id: number; request: string }
  | { type: 'log'; lines: string[] }
  /** `recycle`: the worker's QuickJS is no longer trustworthy (a limit hit, a leak, an abort). */
  | { type: 'done'; ending: WorkerEnding; recycle: boolean }
  | { type: 'stopped'; recycle: boolean }
  /** Cleaning up after an attempt failed: the worker must not run another. */
  | { type: 'poisoned' };

/** What a worker is started with. */
export interface WorkerSetup {
  memoryBytes: number;
}

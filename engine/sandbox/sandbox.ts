/**
 * The Sandbox port (spec: The MCP surface, "Inside the sandbox" and "Default limits"): what a
 * runtime provides to run one attempt of a run's code, bounded by its limits, whose only way out
 * is the host's tool calls and lookups. QuickJS implements it locally and in Workers; its
 * contract suite is test/conformance/sandbox.suite.ts.
 */
import type { JsonValue } from '../contracts/names.ts';
import type { HttpResponse } from '../contracts/runs.ts';

/**
 * What bounds one attempt: a view of a run's limits (engine/sandbox/limits.ts, one model in
 * engine/limits.ts). Hosts may lower these but never raise them.
 */
export interface SandboxLimits {
  /** Guest execution time, paused while tool calls are in flight. */
  computeMs: number;
  /** Ceiling for the attempt, tool calls included. */
  wallMs: number;
  /** The guest heap, as a hard cap. */
  memoryBytes: number;
  /** Tool calls (and hub lookups) in flight at once; the rest wait in order. */
  maxConcurrent: number;
  /** Console output kept, in UTF-8 bytes; the rest is counted and dropped. */
  logBytes: number;
  /** The largest result, and the largest arguments of one call, as UTF-8 JSON. */
  resultBytes: number;
}

/** One attempt of a run: the same seed and clock origin on every attempt make it replayable. */
export interface SandboxAttempt {
  runId: string;
  /** 1 for the first attempt, one more per resume. */
  attempt: number;
  /** The pipeline's output (engine/pipeline): the body of an async function, plain JavaScript. */
  code: string;
  /** The profile's namespaces, each with its tools (the part of the address after the dot). */
  namespaces: Readonly<Record<string, readonly string[]>>;
  /** Seeds Math.random and crypto in the guest. */
  seed: string;
  /** Epoch ms the guest's Date starts from. */
  clockOrigin: number;
  limits?: Partial<SandboxLimits>;
}

/** A guest tool call, numbered by the sandbox in the order the guest made it (from 0). */
export interface SandboxCall {
  seq: number;
  address: string;
  args: { [key: string]: JsonValue };
  connection?: string;
}

/** `hub.search` and `hub.describe` from inside the guest; the answer is the MCP tool's text. */
export type HubLookup =
  | { kind: 'search'; query: string; namespace?: string; limit?: number }
  | { kind: 'describe'; targets: string[] };

/**
 * A lookup from inside the guest: `hub.search`, `hub.describe`, or `hub.read` of a large
 * result's handle (engine/runs/result-handles.ts: a slice of its text, or the value at a path).
 */
export type SandboxLookup =
  | HubLookup
  | { kind: 'read'; handle: string; offset?: number; length?: number; path?: string };

/**
 * What the guest's `ToolError` carries (its address is the call's). The sandbox carries any code;
 * what the engine answers and journals is a ToolErrorCode (contracts/error-codes.ts).
 */
export interface ToolErrorInfo {
  code: string;
  message: string;
  status?: number;
  /** An HTTP API's allowed response headers (contracts/runs.ts ResponseHeaders). */
  headers?: { [name: string]: string };
  hint?: string;
  retryable: boolean;
}

/**
 * The host ending an attempt from inside a call, as the sandbox sees it (the engine's reasons,
 * engine/runs/attempt-ending.ts, come down to these two). `suspend` (e.g. awaiting approval)
 * lets the calls in flight settle, starts no other, and ends the attempt `suspended`; `fail`
 * (e.g. divergence) does the same and ends it `failed` with this error.
 */
export type SandboxEnding =
  | { kind: 'suspend' }
  | { kind: 'fail'; error: { code: string; message: string; hint?: string } };

/**
 * What the host left to do for an answer once the answer is on its way to the guest (the
 * journal's record of the call's outcome: engine/runs/runs.ts). The bridge runs it before it
 * admits the guest's next request or lets the attempt end (host-bridge.ts); an ending it returns
 * ends the attempt, and so does a throw (a hub bug, or a store that failed).
 */
export type AnswerCommit = () => SandboxEnding | undefined;

/** The host's answer to a call: a value or a ToolError for the guest, or the end of the attempt. */
export type SandboxAnswer =
  /** `response`: an HTTP API's status and allowed headers, for code that asks `{ response: true }`. */
  | { kind: 'value'; value: JsonValue; response?: HttpResponse; commit?: AnswerCommit }
  | { kind: 'error'; error: ToolErrorInfo; commit?: AnswerCommit }
  | SandboxEnding;

/** The host side of the bridge. A rejected promise is a hub bug: it fails the attempt. */
export interface SandboxHost {
  call(call: SandboxCall): Promise<SandboxAnswer>;
  lookup(
    request: SandboxLookup,
  ): Promise<{ kind: 'value'; value: JsonValue } | { kind: 'error'; error: ToolErrorInfo }>;
}

/** Which limit ended an attempt. */
export type SandboxLimit = 'compute' | 'wall' | 'memory' | 'stack' | 'result';

/** Why an attempt failed; line and column are in the model's code when known. */
export interface SandboxError {
  /** Read as a RunErrorCode when the run records it (runErrorCode). */
  code: string;
  message: string;
  hint?: string;
  /** The thrown value's class, for an uncaught error (`TypeError`, `ToolError`…). */
  name?: string;
  line?: number;
  column?: number;
}

/** How one attempt ended. */
export interface SandboxOutcome {
  status: 'completed' | 'failed' | 'suspended';
  /** The returned value, when the code completed and returned one. */
  result?: JsonValue;
  error?: SandboxError;
  logs: string[];
  logsTruncated: boolean;
  /** Set when a limit ended the attempt. */
  limit?: SandboxLimit;
  /** Tool calls handed to the host. */
  calls: number;
}

/**
 * Runs guest code with the prelude (engine/prelude) where its only way out is the host's
 * bridge. `run` never throws: every failure, the sandbox's own included, is an outcome, and
 * after any outcome the same sandbox runs the next attempt.
 */
export interface Sandbox {
  run(attempt: SandboxAttempt, host: SandboxHost): Promise<SandboxOutcome>;
  /** Releases what the sandbox holds (threads, isolates). */
  close(): Promise<void>;
}

/**
 * What crosses between a driver and the prelude. The guest side is JavaScript text (source/);
 * these are the shapes as the host sees them. Every value that crosses is a string or a number:
 * arguments, answers and the final report travel as JSON text, so no object of one side is ever
 * handed to the other.
 */
import type { SandboxLimits } from './sandbox.ts';

/** The prelude's second argument, as JSON text. */
export interface PreludeConfig {
  /** Namespace -> its tools (the part of the address after the dot). */
  namespaces: Record<string, readonly string[]>;
  seed: string;
  clockOrigin: number;
  maxConcurrent: number;
  logBytes: number;
  resultBytes: number;
}

/**
 * What a driver hands `configure`: plain functions taking strings and numbers, returning nothing.
 * - `call(id, address, argsJson, connection)` hands a tool call to the host; the answer (JSON
 *   text, see HostBridge) comes back later through the guest's `deliver(id, text)`.
 * - `lookup(id, requestJson)` does the same for `hub.search`/`hub.describe`.
 * - `log(line)` takes one finished console line.
 * - `setTimer(id, ms)`/`clearTimer(id)` are the driver's real-time timers; when one goes off the
 *   driver calls the guest's `fire(id)`. The prelude keeps the logical clock itself.
 * - `done(reportText)` receives how the attempt ended, once (guest-report.ts).
 */
export interface HostPrimitives {
  call(id: number, address: string, argsJson: string, connection: string | null): void;
  lookup(id: number, requestJson: string): void;
  log(line: string): void;
  setTimer(id: number, ms: number): void;
  clearTimer(id: number): void;
  done(reportText: string): void;
}

/** What `configure` returns: the guest's entry points, held only by the driver. */
export interface GuestEntryPoints {
  run(main: () => Promise<unknown>): void;
  deliver(id: number, answerText: string): void;
  fire(id: number): void;
}

/** The config text for one attempt. */
export function preludeConfig(
  namespaces: Readonly<Record<string, readonly string[]>>,
  seed: string,
  clockOrigin: number,
  limits: SandboxLimits,
): string {
  const config: PreludeConfig = {
    namespaces: { ...namespaces },
    seed,
    clockOrigin,
    maxConcurrent: limits.maxConcurrent,
    logBytes: limits.logBytes,
    resultBytes: limits.resultBytes,
  };
  return JSON.stringify(config);
}

/**
 * Turning what an attempt produced into a SandboxOutcome, the same way in both drivers: the
 * prelude's report (JSON text, trusted for nothing: parsed defensively, the result's size
 * checked again), a limit or failure the driver saw itself, or the host's ending from inside a
 * call (HostBridge.ended), which outranks how the guest itself stopped.
 *
 * Uncaught errors are named plainly: a stack overflow becomes a `stack` limit whichever engine
 * raised it, QuickJS's "out of memory" a `memory` limit; a line and column are read from the
 * first stack frame in the model's code (file `guest.js`, whose line 1 is the driver's wrapper).
 */
import type { JsonValue } from '../contracts/names.ts';
import { utf8Length } from '../pipeline/utf8.ts';
import type { LogSink } from './log-sink.ts';
import type { SandboxEnding, SandboxError, SandboxLimit, SandboxOutcome } from './sandbox.ts';

/** The file name both drivers give the model's code. */
export const GUEST_FILE = 'guest.js';
/** Lines the drivers put before the model's first line in GUEST_FILE. */
export const GUEST_LINE_OFFSET = 1;

/** What every outcome carries besides how it ended. */
export interface AttemptTally {
  logs: LogSink;
  calls: number;
}

interface ReportedError {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  hint?: unknown;
  stack?: unknown;
  address?: unknown;
}

/** The outcome for a guest report (the text the prelude handed `host.done`). */
export function outcomeFromReport(text: unknown, tally: AttemptTally, resultBytes: number): SandboxOutcome {
  let report: {
    status?: unknown;
    resultJson?: unknown;
    error?: ReportedError;
    limit?: unknown;
    logsDropped?: unknown;
  };
  try {
    report = JSON.parse(String(text));
  } catch {
    return failedOutcome(tally, {
      code: 'sandbox_failed',
      message: 'The sandbox could not read how the code ended.',
    });
  }
  if (typeof report.logsDropped === 'number') tally.logs.dropped(report.logsDropped);
  if (report.status === 'completed') {
    if (report.resultJson === undefined) return { status: 'completed', ...base(tally) };
    const json = report.resultJson;
    if (typeof json !== 'string' || utf8Length(json, resultBytes) > resultBytes) {
      return failedOutcome(
        tally,
        {
          code: 'result_too_large',
          message: `The result is over ${resultBytes} bytes of JSON, the most one attempt returns.`,
        },
        'result',
      );
    }
    try {
      return { status: 'completed', result: JSON.parse(json) as JsonValue, ...base(tally) };
    } catch {
      return failedOutcome(tally, {
        code: 'result_not_json',
        message: 'The returned value is not JSON data.',
      });
    }
  }
  const error = report.error ?? {};
  const limit = report.limit === 'result' ? 'result' : undefined;
  return guestErrorOutcome(error, tally, limit);
}

/** The outcome for an error the guest threw (or reported), normalized across engines. */
export function guestErrorOutcome(
  error: ReportedError,
  tally: AttemptTally,
  limit?: SandboxLimit,
): SandboxOutcome {
  const name = text(error.name, 100) || 'Error';
  const message = text(error.message, 2000);
  const code = text(error.code, 100) || 'uncaught';
  if (code === 'uncaught' && isStackOverflow(name, message)) {
    return failedOutcome(
      tally,
      {
        code: 'stack_limit',
        name,
        message: `The code recursed too deeply and ran out of stack (${name}: ${message}).`,
      },
      'stack',
    );
  }
  if (code === 'uncaught' && name === 'InternalError' && /out of memory/i.test(message)) {
    return memoryLimit(tally);
  }
  // A thrown error names its class; the prelude's own verdicts (deadlock, result…) carry none.
  if (!error.name) return failedOutcome(tally, withHint({ code, message }, error), limit);
  const where = guestPosition(text(error.stack, 4000));
  const address = text(error.address, 200);
  const shown = name === 'ToolError' && address ? `ToolError: ${address}: ${message}` : `${name}: ${message}`;
  const described: SandboxError = {
    code,
    name,
    message: where ? `${shown} (line ${where.line}, column ${where.column})` : shown,
  };
  if (where) Object.assign(described, where);
  return failedOutcome(tally, withHint(described, error), limit);
}

function withHint(described: SandboxError, error: ReportedError): SandboxError {
  const hint = text(error.hint, 1000);
  if (hint) described.hint = hint;
  return described;
}

/** The outcome of an attempt the host ended from inside a call (HostBridge.ended). */
export function endedByHost(ending: SandboxEnding, tally: AttemptTally): SandboxOutcome {
  return ending.kind === 'suspend'
    ? { status: 'suspended', ...base(tally) }
    : failedOutcome(tally, ending.error);
}

/** An attempt that failed, with everything it logged. */
export function failedOutcome(
  tally: AttemptTally,
  error: SandboxError,
  limit?: SandboxLimit,
): SandboxOutcome {
  const outcome: SandboxOutcome = { status: 'failed', error, ...base(tally) };
  if (limit) outcome.limit = limit;
  return outcome;
}

export function computeLimit(tally: AttemptTally, computeMs: number): SandboxOutcome {
  return failedOutcome(
    tally,
    {
      code: 'compute_limit',
      message: `The code ran for more than its ${computeMs} ms of compute time.`,
      hint: LOOP_HINT,
    },
    'compute',
  );
}

export function wallLimit(tally: AttemptTally, wallMs: number): SandboxOutcome {
  return failedOutcome(
    tally,
    {
      code: 'wall_limit',
      message: `The attempt took longer than its ${wallMs} ms, tool calls and timers included.`,
      hint: 'Do less per execute: fewer sequential calls or shorter waits; independent calls can run in parallel with Promise.all.',
    },
    'wall',
  );
}

export function memoryLimit(tally: AttemptTally): SandboxOutcome {
  return failedOutcome(
    tally,
    {
      code: 'memory_limit',
      message: 'The code used more memory than the sandbox allows.',
      hint: 'Hold less at once: page through results, keep only the fields you need.',
    },
    'memory',
  );
}

const LOOP_HINT = 'Look for a loop that never ends; heavy work belongs in tools, not in the sandbox.';

function base(tally: AttemptTally): Pick<SandboxOutcome, 'logs' | 'logsTruncated' | 'calls'> {
  return { logs: tally.logs.lines, logsTruncated: tally.logs.truncated, calls: tally.calls };
}

function isStackOverflow(name: string, message: string): boolean {
  return (
    (name === 'RangeError' && /call stack/i.test(message)) ||
    (name === 'InternalError' && /stack overflow/i.test(message))
  );
}

/** The first position in the model's code named by a stack trace, in the model's own lines. */
export function guestPosition(stack: string): { line: number; column: number } | undefined {
  const match = new RegExp(`${GUEST_FILE.replace('.', '\\.')}:(\\d+):(\\d+)`).exec(stack);
  if (!match) return undefined;
  const line = Number(match[1]) - GUEST_LINE_OFFSET;
  return line >= 1 ? { line, column: Number(match[2]) } : undefined;
}

function text(value: unknown, max: number): string {
  return typeof value === 'string' ? value.slice(0, max) : '';
}

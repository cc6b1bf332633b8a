/**
 * What the sandbox contract's checks share: a recording host, and `run`, which takes code the
 * way `execute` does (through the pipeline, unless `raw`) and runs one attempt.
 */
import { prepareCode } from '../../../engine/pipeline/index.ts';
import type {
  Sandbox,
  SandboxAnswer,
  SandboxCall,
  SandboxHost,
  SandboxLimits,
  SandboxLookup,
  SandboxOutcome,
} from '../../../engine/sandbox/sandbox.ts';

export const T0 = 1_800_000_000_000;
export const NAMESPACES: Readonly<Record<string, readonly string[]>> = {
  github: ['createIssue', 'searchIssues', 'getIssue'],
  slack: ['postMessage'],
};

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Echoes each call back as its value. */
export const echo = (call: SandboxCall): SandboxAnswer => ({
  kind: 'value',
  value: { address: call.address, args: call.args, seq: call.seq },
});

/** A host that records every call and lookup, and how many calls were in flight at once. */
export class RecordingHost implements SandboxHost {
  readonly calls: SandboxCall[] = [];
  readonly lookups: SandboxLookup[] = [];
  inFlight = 0;
  maxInFlight = 0;
  settled = 0;
  readonly #answer: (call: SandboxCall) => SandboxAnswer | Promise<SandboxAnswer>;

  constructor(answer: (call: SandboxCall) => SandboxAnswer | Promise<SandboxAnswer> = echo) {
    this.#answer = answer;
  }

  async call(call: SandboxCall): Promise<SandboxAnswer> {
    this.calls.push(call);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      return await this.#answer(call);
    } finally {
      this.inFlight--;
      this.settled++;
    }
  }

  async lookup(request: SandboxLookup): Promise<{ kind: 'value'; value: string }> {
    this.lookups.push(request);
    return { kind: 'value', value: `${request.kind}: ${JSON.stringify(request)}` };
  }
}

export interface RunOptions {
  host?: SandboxHost;
  limits?: Partial<SandboxLimits>;
  namespaces?: Readonly<Record<string, readonly string[]>>;
  seed?: string;
  clockOrigin?: number;
  attempt?: number;
  /** Hand the code to the sandbox as it is, without the pipeline (what a buggy caller might do). */
  raw?: boolean;
}

export interface Ran extends SandboxOutcome {
  notices: string[];
}

export type Run = (code: string, options?: RunOptions) => Promise<Ran>;

/** Registers one check of the contract; each section calls it. */
export type Check = (title: string, body: (run: Run) => Promise<void>, timeoutMs?: number) => void;

/** `run` over one sandbox. */
export function runner(sandbox: () => Sandbox): Run {
  return async (code, options = {}) => {
    let body = code;
    let notices: string[] = [];
    if (!options.raw) {
      const prepared = prepareCode(code);
      notices = prepared.notices;
      if (!prepared.ok) {
        return { status: 'failed', error: prepared.error, logs: [], logsTruncated: false, calls: 0, notices };
      }
      body = prepared.code;
    }
    const outcome = await sandbox().run(
      {
        runId: 'run_1',
        attempt: options.attempt ?? 1,
        code: body,
        namespaces: options.namespaces ?? NAMESPACES,
        seed: options.seed ?? 'seed-1',
        clockOrigin: options.clockOrigin ?? T0,
        limits: options.limits ?? {},
      },
      options.host ?? new RecordingHost(),
    );
    return { ...outcome, notices };
  };
}

/** The result of an attempt that must have completed. */
export function resultOf(outcome: Ran): unknown {
  if (outcome.status !== 'completed') {
    throw new Error(`expected completed, got ${outcome.status}: ${JSON.stringify(outcome.error)}`);
  }
  return outcome.result;
}

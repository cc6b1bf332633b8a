/**
 * The host half of the bridge, shared by both drivers: every guest call and hub lookup passes
 * here on its way to the SandboxHost. It is the authority the prelude only mirrors:
 *
 * - it numbers tool calls itself, from 0, in the order they arrive (both transports keep the
 *   guest's order), so a guest cannot choose or reuse a `seq`;
 * - it hands at most `maxConcurrent` calls and lookups to the host at once, the rest wait in
 *   order;
 * - it admits only the attempt's own addresses, arguments that are a JSON object within
 *   `resultBytes`, and well-formed lookups (`hub.read` too); anything else is a ToolError for the guest and never
 *   reaches the host;
 * - once the host ends the attempt (`suspend`, `fail`, or a host error) or the driver closes it,
 *   nothing more starts: waiting calls are dropped and every later answer is "ended", so no call
 *   reaches the host after its attempt is over;
 * - what the host left to do for an answer (`SandboxAnswer.commit`: the journal's record of the
 *   outcome) runs before the answer is returned; or, for a driver that says it calls `answered()`
 *   right after handing answers over (`commitsAfterAnswers`), then, so the guest reads its answer
 *   while the outcome is recorded. Either way before the bridge admits the guest's next request,
 *   and before it closes: nothing the guest does after an answer reaches the host first.
 */
import type { JsonValue } from '../contracts/names.ts';
import { utf8Length } from '../pipeline/utf8.ts';
import type {
  AnswerCommit,
  SandboxAnswer,
  SandboxCall,
  SandboxEnding,
  SandboxHost,
  SandboxLookup,
} from './sandbox.ts';

/** The answer that tells the prelude its attempt is over: the awaiting guest code never resumes. */
export const ENDED_ANSWER = '{"ended":true}';

const CONNECTION = /^[a-z0-9][a-z0-9_-]{0,39}$/;

interface Job {
  start: () => Promise<string>;
  resolve: (text: string) => void;
}

export interface HostBridgeOptions {
  maxConcurrent: number;
  /** Every address the attempt may call (its profile's tools). */
  addresses: Iterable<string>;
  resultBytes: number;
  /**
   * The driver calls `answered()` right after it hands answers to the guest, in the same turn of
   * its event loop: the host's commits for those answers wait until then. Otherwise each runs
   * before its answer is returned.
   */
  commitsAfterAnswers?: boolean;
}

export class HostBridge {
  readonly ended: Promise<SandboxEnding>;
  readonly #host: SandboxHost;
  readonly #max: number;
  readonly #addresses: ReadonlySet<string>;
  readonly #resultBytes: number;
  readonly #commitsAfterAnswers: boolean;
  /** Commits of answers returned and not yet handed to the guest, oldest first. */
  #commits: AnswerCommit[] = [];
  readonly #queue: (Job | undefined)[] = [];
  #head = 0;
  #inflight = 0;
  #nextSeq = 0;
  #handed = 0;
  #open = true;
  #ending: SandboxEnding | undefined;
  #endWith: (ending: SandboxEnding) => void = () => {};
  #idle: (() => void)[] = [];

  constructor(host: SandboxHost, options: HostBridgeOptions) {
    this.#host = host;
    this.#max = Math.max(1, options.maxConcurrent);
    this.#addresses = new Set(options.addresses);
    this.#resultBytes = options.resultBytes;
    this.#commitsAfterAnswers = options.commitsAfterAnswers === true;
    this.ended = new Promise((resolve) => {
      this.#endWith = resolve;
    });
  }

  /** Tool calls handed to the host so far. */
  get calls(): number {
    return this.#handed;
  }

  /** A guest tool call, as the prelude sent it. Resolves with the answer text for the guest. */
  call(address: unknown, argsJson: unknown, connection: unknown): Promise<string> {
    this.answered();
    if (!this.#open) return Promise.resolve(ENDED_ANSWER);
    if (typeof address !== 'string' || !this.#addresses.has(address)) {
      return refused(`${String(address).slice(0, 100)} is not a tool this code can call`);
    }
    if (
      connection !== null &&
      connection !== undefined &&
      (typeof connection !== 'string' || !CONNECTION.test(connection))
    ) {
      return refused('the connection must be a connection name, e.g. "work"');
    }
    const args = this.#parse(argsJson);
    if (args === undefined || args === null || typeof args !== 'object' || Array.isArray(args)) {
      return refused(`the arguments must be one object of JSON, at most ${this.#resultBytes} bytes`);
    }
    const call: SandboxCall = { seq: this.#nextSeq++, address, args };
    if (typeof connection === 'string') call.connection = connection;
    return this.#enqueue(async () => {
      this.#handed++;
      const answer = await this.#host.call(call);
      if ((answer.kind === 'value' || answer.kind === 'error') && answer.commit) {
        if (this.#commitsAfterAnswers && this.#open) this.#commits.push(answer.commit);
        else this.#commit(answer.commit);
      }
      return this.#answerText(answer);
    });
  }

  /** `hub.search`, `hub.describe` or `hub.read`, as the prelude sent it. */
  lookup(requestJson: unknown): Promise<string> {
    this.answered();
    if (!this.#open) return Promise.resolve(ENDED_ANSWER);
    const request = toLookup(this.#parse(requestJson));
    if (!request) {
      return refused(
        'hub.search takes a query; hub.describe takes 1 to 10 targets; hub.read takes a handle and { offset, length } or { path }',
      );
    }
    return this.#enqueue(async () => {
      const answer = await this.#host.lookup(request);
      return answer.kind === 'value'
        ? this.#answerText({ kind: 'value', value: answer.value })
        : this.#answerText(answer);
    });
  }

  /**
   * The answers returned so far are on their way to the guest: runs what the host left to do
   * for them (`commitsAfterAnswers`), oldest first.
   */
  answered(): void {
    while (this.#commits.length > 0) {
      const commits = this.#commits;
      this.#commits = [];
      for (const commit of commits) this.#commit(commit);
    }
  }

  /** Starts nothing more; waiting calls are dropped and answered "ended". */
  close(): void {
    this.answered();
    this.#open = false;
    while (this.#head < this.#queue.length) {
      const job = this.#queue[this.#head];
      this.#queue[this.#head++] = undefined;
      job?.resolve(ENDED_ANSWER);
    }
  }

  /** Resolves once no call is in flight. */
  idle(): Promise<void> {
    if (this.#inflight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #enqueue(start: () => Promise<string>): Promise<string> {
    return new Promise((resolve) => {
      this.#queue.push({ start, resolve });
      this.#pump();
    });
  }

  #pump(): void {
    while (this.#open && this.#inflight < this.#max && this.#head < this.#queue.length) {
      const job = this.#queue[this.#head];
      this.#queue[this.#head++] = undefined;
      if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        this.#queue.splice(0, this.#head);
        this.#head = 0;
      }
      if (!job) continue;
      this.#inflight++;
      job
        .start()
        .catch((error: unknown) => {
          this.#end({
            kind: 'fail',
            error: { code: 'internal', message: `The hub failed while answering a call: ${describe(error)}` },
          });
          return ENDED_ANSWER;
        })
        .then((text) => {
          this.#inflight--;
          job.resolve(this.#open ? text : ENDED_ANSWER);
          if (this.#inflight === 0) for (const resolve of this.#idle.splice(0)) resolve();
          this.#pump();
        });
    }
  }

  #answerText(answer: SandboxAnswer): string {
    switch (answer.kind) {
      case 'value':
        return JSON.stringify({ ok: true, value: answer.value, response: answer.response });
      case 'error': {
        const { code, message, status, headers, hint, retryable } = answer.error;
        return JSON.stringify({
          ok: false,
          error: { code, message, status, headers, hint, retryable: retryable === true },
        });
      }
      case 'suspend':
        this.#end({ kind: 'suspend' });
        return ENDED_ANSWER;
      case 'fail':
        this.#end({ kind: 'fail', error: answer.error });
        return ENDED_ANSWER;
      default:
        this.#end({
          kind: 'fail',
          error: { code: 'internal', message: 'The hub gave an answer of no known kind.' },
        });
        return ENDED_ANSWER;
    }
  }

  /** Runs one commit; an ending it returns, or a throw, ends the attempt. */
  #commit(commit: AnswerCommit): void {
    let ending: SandboxEnding | undefined;
    try {
      ending = commit();
    } catch (error) {
      ending = {
        kind: 'fail',
        error: { code: 'internal', message: `The hub failed while answering a call: ${describe(error)}` },
      };
    }
    if (ending) this.#end(ending);
  }

  #end(ending: SandboxEnding): void {
    if (this.#ending) return;
    this.#ending = ending;
    this.close();
    this.#endWith(ending);
  }

  #parse(text: unknown): JsonValue | undefined {
    if (
      typeof text !== 'string' ||
      text.length > this.#resultBytes ||
      utf8Length(text, this.#resultBytes) > this.#resultBytes
    ) {
      return undefined;
    }
    try {
      return JSON.parse(text) as JsonValue;
    } catch {
      return undefined;
    }
  }
}

function refused(message: string): Promise<string> {
  return Promise.resolve(
    JSON.stringify({ ok: false, error: { code: 'invalid_call', message, retryable: false } }),
  );
}

function toLookup(value: JsonValue | undefined): SandboxLookup | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  if (value.kind === 'search' && typeof value.query === 'string' && value.query.length <= 1000) {
    const request: SandboxLookup = { kind: 'search', query: value.query };
    if (typeof value.namespace === 'string') request.namespace = value.namespace.slice(0, 100);
    if (typeof value.limit === 'number' && Number.isInteger(value.limit) && value.limit > 0) {
      request.limit = Math.min(value.limit, 25);
    }
    return request;
  }
  if (value.kind === 'read') return toRead(value);
  const targets = value.targets;
  if (value.kind === 'describe' && Array.isArray(targets) && targets.length >= 1 && targets.length <= 10) {
    if (targets.every((t) => typeof t === 'string' && t.length <= 200))
      return { kind: 'describe', targets: targets as string[] };
  }
  return undefined;
}

const whole = (n: JsonValue | undefined): n is number =>
  typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/** `hub.read`: a handle with a slice (whole numbers) or a path, never both. */
function toRead(value: { [key: string]: JsonValue }): SandboxLookup | undefined {
  const { handle, offset, length, path } = value;
  if (typeof handle !== 'string' || handle === '' || handle.length > 100) return undefined;
  const request: SandboxLookup = { kind: 'read', handle };
  if (path !== undefined && path !== null) {
    if (typeof path !== 'string' || path.length > 1000 || offset != null || length != null) return undefined;
    request.path = path;
    return request;
  }
  if (offset != null) {
    if (!whole(offset)) return undefined;
    request.offset = offset;
  }
  if (length != null) {
    if (!whole(length) || length === 0) return undefined;
    request.length = length;
  }
  return request;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

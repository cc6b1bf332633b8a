/**
 * Large results as handles (spec: M2 "large results as handles read with `hub.read`"). A tool
 * result over INLINE_CALL_RESULT_BYTES of JSON is kept in the store as a blob of its run (its
 * text scrubbed already: upstream answers are scrubbed before the gate sees them) and the guest
 * gets a handle object `{ handle, bytes, mediaType, preview }` in its place. The journal records
 * that object, so a resumed run replays the same handle; the blob goes when the run is pruned.
 *
 * Budgets (I7): one result over `callResultBytes` fails `result_too_large`, as does one that would
 * take the run's blobs past `runBlobBytes`; the call was made, the source is not at fault.
 *
 * `hub.read` (readResult) reads a handle of the same run: a slice of its text by UTF-8 byte
 * offset and length, or the value at a path of its JSON, each at most INLINE_CALL_RESULT_BYTES.
 */
import type { JsonValue } from '../contracts/names.ts';
import type { CallOutcome, Run } from '../contracts/runs.ts';
import { randomId } from '../hex.ts';
import type { RunLimits } from '../limits.ts';
import { utf8Length } from '../pipeline/utf8.ts';
import type { HubStore, Random, ResultBlob } from '../ports.ts';
import type { ToolErrorInfo } from '../sandbox/sandbox.ts';
import type { Scrubber } from '../secrets/scrub.ts';

/** A tool result larger than this, as UTF-8 JSON, reaches the guest as a handle; also the most one `hub.read` returns. */
export const INLINE_CALL_RESULT_BYTES = 64 * 1024;
/** Characters of the result's text a handle shows as its preview. */
export const HANDLE_PREVIEW_CHARS = 512;

const JSON_TYPE = 'application/json';
const TEXT_TYPE = 'text/plain';

export interface HandleDeps {
  store: HubStore;
  random: Random;
  clock: { now(): number };
  limits: Pick<RunLimits, 'callResultBytes' | 'runBlobBytes'>;
  /** Every secret the hub holds: the blob's value is scrubbed again before it is kept. */
  scrubbing: { scrubber: Pick<Scrubber, 'text' | 'value'> };
}

/** What the guest gets for a call, and the journal's record of it when that is left to the caller. */
export interface Settled {
  outcome: CallOutcome;
  /**
   * Settles the outcome in the journal (it throws as the store does). Present for an outcome that
   * goes to the guest as it is, so the caller may run it while the guest reads its answer; absent
   * when the outcome is settled already (a handle, or `result_too_large`).
   */
  record?: () => void;
}

/**
 * What the guest gets for a call's outcome: the outcome itself, whose record in the journal is
 * left to the caller (`Settled.record`); or for a large value a handle, settled here (the blob
 * and the journal's outcome land in one transaction, the run's budget checked inside it), or
 * `result_too_large`.
 */
export function settleWithHandles(
  deps: HandleDeps,
  run: Run,
  call: { seq: number; address: string },
  outcome: CallOutcome,
): Settled {
  const { store, clock } = deps;
  const large = outcome.ok ? measure(outcome.value, deps.scrubbing.scrubber) : undefined;
  if (!outcome.ok || large === undefined) {
    return { outcome, record: () => store.settleJournal(run.id, call.seq, outcome, clock.now()) };
  }
  const { callResultBytes, runBlobBytes } = deps.limits;
  const handled = store.atomically(() => {
    const kept = store.resultBlobBytes(run.id);
    let settled: CallOutcome;
    if (large.bytes > callResultBytes) {
      settled = tooLarge(
        outcome.ms,
        `${call.address} returned ${large.bytes} bytes, over the ${callResultBytes} bytes one result may take; the call was made`,
      );
    } else if (kept + large.bytes > runBlobBytes) {
      settled = tooLarge(
        outcome.ms,
        `${call.address} returned ${large.bytes} bytes, and this run already keeps ${kept} bytes of large results: together over the ${runBlobBytes} bytes a run may keep; the call was made`,
      );
    } else {
      const blob: ResultBlob = {
        handle: randomId(deps.random, 'res', 12),
        runId: run.id,
        bytes: large.bytes,
        mediaType: large.mediaType,
        text: large.text,
        createdAt: clock.now(),
      };
      store.putResultBlob(blob);
      settled = { ...outcome, value: handleObject(blob) };
    }
    store.settleJournal(run.id, call.seq, settled, clock.now());
    return settled;
  });
  return { outcome: handled };
}

/** A value's text and size when it is too large to go inline; undefined when it fits. */
function measure(
  value: JsonValue,
  scrub: Pick<Scrubber, 'text' | 'value'>,
): { text: string; bytes: number; mediaType: string } | undefined {
  const json = JSON.stringify(value);
  if (utf8Length(json, INLINE_CALL_RESULT_BYTES) <= INLINE_CALL_RESULT_BYTES) return undefined;
  // A text result is kept as the text itself, so a slice reads its characters, not its JSON.
  // Upstream answers arrive scrubbed; what is kept is scrubbed once more, as everything stored:
  // a value's strings and keys, never its JSON text (a secret that is also a number in it would
  // leave the text no longer JSON).
  const text = typeof value === 'string' ? scrub.text(value) : JSON.stringify(scrub.value(value));
  return { text, bytes: utf8Length(text), mediaType: typeof value === 'string' ? TEXT_TYPE : JSON_TYPE };
}

function handleObject(blob: ResultBlob): JsonValue {
  let end = Math.min(HANDLE_PREVIEW_CHARS, blob.text.length);
  const last = blob.text.charCodeAt(end - 1);
  if (end < blob.text.length && last >= 0xd800 && last <= 0xdbff) end--;
  return {
    handle: blob.handle,
    bytes: blob.bytes,
    mediaType: blob.mediaType,
    preview: blob.text.slice(0, end),
  };
}

function tooLarge(ms: number, message: string): CallOutcome {
  return {
    ok: false,
    error: {
      code: 'result_too_large',
      message,
      retryable: false,
      hint: 'ask the tool for less (a page, a filter, fewer fields), or split the work across runs',
    },
    ms,
  };
}

/** `hub.read(handle, { offset, length })` or `hub.read(handle, { path })` as the bridge hands it over. */
export interface ReadRequest {
  kind: 'read';
  handle: string;
  offset?: number;
  length?: number;
  path?: string;
}

export type ReadAnswer = { kind: 'value'; value: JsonValue } | { kind: 'error'; error: ToolErrorInfo };

/**
 * What one attempt has read of its blobs: the UTF-8 bytes for slices and the parsed JSON for
 * paths, each made once, so a loop of reads over one result costs one decode, not one per read.
 * Holds at most the last blob read (a run's blobs may add up to `runBlobBytes`).
 */
export class ReadCache {
  #handle: string | undefined;
  #text = '';
  #bytes: Uint8Array | undefined;
  #json: { value: JsonValue } | { error: true } | undefined;

  text(store: HubStore, handle: string): string {
    if (this.#handle !== handle) {
      this.#handle = handle;
      this.#text = store.readResultBlobText(handle) ?? '';
      this.#bytes = undefined;
      this.#json = undefined;
    }
    return this.#text;
  }

  bytes(store: HubStore, handle: string): Uint8Array {
    const text = this.text(store, handle);
    this.#bytes ??= new TextEncoder().encode(text);
    return this.#bytes;
  }

  json(store: HubStore, handle: string): JsonValue | undefined {
    const text = this.text(store, handle);
    if (this.#json === undefined) {
      try {
        this.#json = { value: JSON.parse(text) as JsonValue };
      } catch {
        this.#json = { error: true };
      }
    }
    return 'value' in this.#json ? this.#json.value : undefined;
  }
}

/** Answers `hub.read` for a guest of run `runId`. */
export function readResult(
  store: HubStore,
  runId: string,
  request: ReadRequest,
  cache: ReadCache = new ReadCache(),
): ReadAnswer {
  const info = store.getResultBlobInfo(request.handle);
  if (!info || info.runId !== runId) {
    return refused(
      'not_found',
      info
        ? `${request.handle} is a result of another run; a handle is read only inside the run whose call returned it. Call the tool again in this run.`
        : `there is no result ${request.handle}; a handle is read only inside the run whose call returned it, while the run is kept. Call the tool again.`,
    );
  }
  return request.path === undefined
    ? slice(() => cache.bytes(store, request.handle), info.bytes, request)
    : atPath(() => cache.json(store, request.handle), info.mediaType, request.path);
}

/** `at` moved back to the first byte of the character it falls in (past a UTF-8 continuation byte). */
function characterStart(bytes: Uint8Array, at: number): number {
  let start = Math.min(at, bytes.length);
  while (start > 0 && start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
  return start;
}

/**
 * A slice's text. Both ends move back to the start of the character they fall in, so a slice
 * holds whole characters and slices read one after another (0–65536, 65536–131072, …) join into
 * the whole text exactly, a character cut by one boundary going wholly to the later slice.
 */
function slice(bytesOf: () => Uint8Array, bytes: number, request: ReadRequest): ReadAnswer {
  const offset = request.offset ?? 0;
  if (offset >= bytes && !(offset === 0 && bytes === 0)) {
    return refused(
      'invalid_input',
      `offset ${offset} is past the end: the result has ${bytes} bytes (offsets 0 to ${Math.max(0, bytes - 1)})`,
    );
  }
  const length = request.length ?? Math.min(INLINE_CALL_RESULT_BYTES, bytes - offset);
  if (length > INLINE_CALL_RESULT_BYTES) {
    return refused(
      'invalid_input',
      `a read returns at most ${INLINE_CALL_RESULT_BYTES} bytes; read the result in slices of that size, or a path of it`,
    );
  }
  const encoded = bytesOf();
  const start = characterStart(encoded, offset);
  const end = characterStart(encoded, offset + length);
  return { kind: 'value', value: new TextDecoder().decode(encoded.subarray(start, end)) };
}

function atPath(jsonOf: () => JsonValue | undefined, mediaType: string, path: string): ReadAnswer {
  if (mediaType !== JSON_TYPE) {
    return refused('invalid_input', 'this result is text, not JSON: read it with { offset, length }');
  }
  const segments = parsePath(path);
  if (!segments) {
    return refused('invalid_input', `"${path.slice(0, 100)}" is not a path; write one like items[0].title`);
  }
  let value = jsonOf();
  if (value === undefined) {
    return refused(
      'invalid_input',
      'this result is no longer JSON once scrubbed: read it with { offset, length }',
    );
  }
  let walked = '';
  for (const segment of segments) {
    const next: JsonValue | undefined =
      typeof segment === 'number'
        ? Array.isArray(value)
          ? value[segment]
          : undefined
        : value !== null &&
            typeof value === 'object' &&
            !Array.isArray(value) &&
            Object.hasOwn(value, segment)
          ? value[segment]
          : undefined;
    const step = typeof segment === 'number' ? `[${segment}]` : walked === '' ? segment : `.${segment}`;
    if (next === undefined) {
      const what = Array.isArray(value)
        ? `an array of ${value.length}`
        : value === null
          ? 'null'
          : typeof value;
      return refused(
        'not_found',
        `the result has nothing at ${walked}${step}: ${walked || 'the result'} is ${what}`,
      );
    }
    value = next;
    walked += step;
  }
  const size = utf8Length(JSON.stringify(value), INLINE_CALL_RESULT_BYTES);
  if (size > INLINE_CALL_RESULT_BYTES) {
    return refused(
      'invalid_input',
      `the value at ${path} is over the ${INLINE_CALL_RESULT_BYTES} bytes a read returns; read a deeper path, or the text with { offset, length }`,
    );
  }
  return { kind: 'value', value };
}

/** `items[0].title`, `a.b`, `["a key"][2]`: names and indexes, or undefined when it is not a path. */
export function parsePath(path: string): (string | number)[] | undefined {
  const segments: (string | number)[] = [];
  const part = /^(?:\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\])/;
  let rest = path;
  while (rest !== '') {
    const match = part.exec(rest);
    if (!match) return undefined;
    if (segments.length === 0 && match[0].startsWith('.')) return undefined;
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else if (match[3] !== undefined) {
      const key = quotedKey(match[3]);
      if (key === undefined) return undefined;
      segments.push(key);
    }
    rest = rest.slice(match[0].length);
  }
  return segments.length > 0 ? segments : undefined;
}

/** A quoted key's name, or undefined for a quote JSON does not read (`"\\x"`, a raw newline). */
function quotedKey(quoted: string): string | undefined {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return undefined;
  }
}

function refused(code: 'invalid_input' | 'not_found', message: string): ReadAnswer {
  return { kind: 'error', error: { code, message, retryable: false } };
}

/**
 * A run's returned value with a handle of that same run read back whole (direct mode: a one-call
 * run returns the tool's value, and its caller has no `hub.read`). The blob holds at most
 * `callResultBytes` (larger results were refused when settled); a JSON blob answers its value, a
 * text blob its text. Anything else, a handle of another run included, answers as it is.
 */
export function resolvedResult(store: HubStore, runId: string, value: JsonValue | undefined) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const { handle, bytes, mediaType, preview } = value;
  const keys = Object.keys(value);
  if (
    keys.length !== 4 ||
    typeof handle !== 'string' ||
    typeof bytes !== 'number' ||
    typeof mediaType !== 'string' ||
    typeof preview !== 'string'
  ) {
    return value;
  }
  const info = store.getResultBlobInfo(handle);
  if (!info || info.runId !== runId) return value;
  const text = store.readResultBlobText(handle);
  if (text === undefined) return value;
  if (info.mediaType !== JSON_TYPE) return text;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    // No longer JSON once scrubbed (result-handles' own note): its text, whole.
    return text;
  }
}

/**
 * The QuickJS worker's hot path, straight through the wasm API (quickjs-emscripten's FFI)
 * rather than through QuickJSContext's general-purpose methods: delivering an answer and taking
 * the outbox happen once per bridged call, and the library's path allocates a handle object per
 * value, a heap array per call and a lifetime per pointer. This file owns only those crossings
 * (and running the jobs they queue); everything else (setup, errors, disposal) stays on the
 * library's API.
 *
 * It reads the context's own memory record (`memory`: its context pointer, module and FFI),
 * which quickjs-emscripten-core 0.32 keeps on every context but does not export. The shape is
 * checked when a context is prepared: if a new version moved it, every attempt fails at setup
 * with a message naming this file, never later with a corrupt heap.
 */
import type {
  BorrowedHeapCharPointer,
  EitherFFI,
  EitherModule,
  JSContextPointer,
  JSContextPointerPointer,
  JSRuntimePointer,
  JSValueConstPointerPointer,
  JSValuePointer,
  OwnedHeapCharPointer,
  QuickJSContext,
  QuickJSHandle,
} from 'quickjs-emscripten-core';

/** What this file reads of a context's memory record. */
interface ContextInternals {
  ctx: { value: JSContextPointer };
  rt: { value: JSRuntimePointer };
  module: EitherModule;
  ffi: EitherFFI;
  heapValueHandle(ptr: JSValuePointer): QuickJSHandle;
}

/** The wasm heap had no room for an argument: the attempt ends at its memory limit. */
export class WasmHeapFull extends Error {}

/** What a direct call returned: its value as text, or the error it threw (the caller disposes). */
export type DirectResult = { text: string } | { error: QuickJSHandle };

export class DirectCalls {
  readonly #ctx: JSContextPointer;
  readonly #rt: JSRuntimePointer;
  readonly #module: EitherModule;
  readonly #ffi: EitherFFI;
  readonly #internals: ContextInternals;
  readonly #undefined: JSValuePointer;
  /** Two argument slots and one out-pointer slot, allocated once per context. */
  #argv = 0;
  #words: Int32Array | undefined;

  constructor(context: QuickJSContext) {
    const internals = internalsOf(context);
    this.#internals = internals;
    this.#ctx = internals.ctx.value;
    this.#rt = internals.rt.value;
    this.#module = internals.module;
    this.#ffi = internals.ffi;
    this.#undefined = context.undefined.value as JSValuePointer;
    this.#argv = this.#malloc(12);
  }

  /** `fn(id, text)`, dropping what it returns or throws (the prelude's entry points). */
  callWithIdAndText(fn: QuickJSHandle, id: number, text: string): void {
    const ffi = this.#ffi;
    const ctx = this.#ctx;
    const bytes = this.#module.lengthBytesUTF8(text) + 1;
    const chars = this.#malloc(bytes);
    this.#module.stringToUTF8(text, chars as OwnedHeapCharPointer, bytes);
    const value = ffi.QTS_NewString(ctx, chars as BorrowedHeapCharPointer);
    this.#module._free(chars);
    const key = ffi.QTS_NewFloat64(ctx, id);
    if (!value || !key) {
      if (value) ffi.QTS_FreeValuePointer(ctx, value);
      if (key) ffi.QTS_FreeValuePointer(ctx, key);
      throw new WasmHeapFull('the QuickJS heap is full');
    }
    const heap = this.#heap32();
    heap[this.#argv >> 2] = key;
    heap[(this.#argv >> 2) + 1] = value;
    const result = ffi.QTS_Call(ctx, fn.value, this.#undefined, 2, this.#argv as JSValueConstPointerPointer);
    const error = ffi.QTS_ResolveException(ctx, result);
    if (error) ffi.QTS_FreeValuePointer(ctx, error);
    ffi.QTS_FreeValuePointer(ctx, result);
    ffi.QTS_FreeValuePointer(ctx, key);
    ffi.QTS_FreeValuePointer(ctx, value);
  }

  /** `fn()` as a string (the outbox's `take`, which only ever returns one). */
  callForText(fn: QuickJSHandle): DirectResult {
    const ffi = this.#ffi;
    const ctx = this.#ctx;
    const result = ffi.QTS_Call(ctx, fn.value, this.#undefined, 0, 0 as JSValueConstPointerPointer);
    const error = ffi.QTS_ResolveException(ctx, result);
    if (error) {
      ffi.QTS_FreeValuePointer(ctx, result);
      return { error: this.#internals.heapValueHandle(error) };
    }
    const chars = ffi.QTS_GetString(ctx, result);
    ffi.QTS_FreeValuePointer(ctx, result);
    if (!chars) throw new WasmHeapFull('the QuickJS heap is full');
    const text = this.#module.UTF8ToString(chars as unknown as BorrowedHeapCharPointer);
    ffi.QTS_FreeCString(ctx, chars);
    return { text };
  }

  /**
   * Runs every pending job (promise reactions), like `runtime.executePendingJobs()`; a job that
   * threw stops the run and its error is returned (the caller disposes it).
   */
  runJobs(): QuickJSHandle | undefined {
    const ffi = this.#ffi;
    const out = this.#argv + 8;
    this.#heap32()[out >> 2] = 0;
    const result = ffi.QTS_ExecutePendingJob(this.#rt, -1, out as JSContextPointerPointer);
    if (this.#heap32()[out >> 2] === 0) {
      ffi.QTS_FreeValuePointerRuntime(this.#rt, result);
      return undefined;
    }
    // The result is the number of jobs run, or what the failing job threw.
    const type = ffi.QTS_Typeof(this.#ctx, result);
    // "number" is the only type that starts with an n (110).
    const number = type !== 0 && this.#module.HEAPU8[type] === 110;
    if (type !== 0) this.#module._free(type);
    if (!number) return this.#internals.heapValueHandle(result);
    ffi.QTS_FreeValuePointer(this.#ctx, result);
    return undefined;
  }

  /** Frees the argument slots; call before the context is disposed. */
  dispose(): void {
    if (this.#argv !== 0) this.#module._free(this.#argv);
    this.#argv = 0;
  }

  /** The heap as 32-bit words; a new view whenever the memory grew (growing detaches the old one). */
  #heap32(): Int32Array {
    const buffer = this.#module.HEAPU8.buffer;
    if (this.#words?.buffer !== buffer) this.#words = new Int32Array(buffer);
    return this.#words;
  }

  #malloc(bytes: number): number {
    const ptr = this.#module._malloc(bytes);
    if (!ptr) throw new WasmHeapFull('the QuickJS heap is full');
    return ptr;
  }
}

function internalsOf(context: QuickJSContext): ContextInternals {
  const memory = (context as unknown as { memory?: Partial<ContextInternals> }).memory;
  if (
    typeof memory?.ctx?.value !== 'number' ||
    typeof memory.rt?.value !== 'number' ||
    typeof memory.module?._malloc !== 'function' ||
    typeof memory.ffi?.QTS_Call !== 'function' ||
    typeof memory.heapValueHandle !== 'function'
  ) {
    throw new Error(
      'quickjs-emscripten-core no longer has the context internals local/quickjs/direct.ts reads ' +
        '(written for 0.32.0): update that file for the installed version',
    );
  }
  return memory as ContextInternals;
}

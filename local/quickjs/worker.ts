/**
 * A QuickJS worker thread (started by local/quickjs/pool.ts). It owns one QuickJS WebAssembly
 * module built over its own WebAssembly.Memory whose `maximum` is the hard cap on the guest heap
 * (QuickJS's own memory limit is not a cap), and runs one attempt at a time on it.
 *
 * QuickJS is the sync build: guest promises resolve through the host (a promise bridge), so
 * `Promise.all` over tool calls really runs them side by side. A worker whose attempt hit a
 * limit or failed to clean up reports `recycle` and is terminated and replaced by the host.
 */

import { parentPort, workerData } from 'node:worker_threads';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core';
import { QuickJsAttempt } from './attempt.ts';
import { readAnswers } from './fields.ts';
import type { FromWorker, ToWorker, WorkerSetup } from './protocol.ts';
import { WasmMemory } from './wasm-memory.ts';

const PAGE = 64 * 1024;
/** QuickJS's module starts with a 16 MB heap. */
const INITIAL_PAGES = 256;
/** Room for the module's own data and stack beside the guest heap. */
const OVERHEAD_BYTES = 8 * 1024 * 1024;

const port = parentPort;
if (!port) throw new Error('local/quickjs/worker.ts runs as a worker thread');
const setup = workerData as WorkerSetup;
const post = (message: FromWorker) => port.postMessage(message);

const maximum = Math.max(INITIAL_PAGES, Math.ceil((setup.memoryBytes + OVERHEAD_BYTES) / PAGE));
const memory = new WasmMemory({ initial: INITIAL_PAGES, maximum });
/** The module grew past the guest's budget: only the overhead is left before the hard cap. */
const memoryFull = () => memory.buffer.byteLength >= setup.memoryBytes;
const quickjs = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmMemory: memory }));

let current: QuickJsAttempt | undefined;
/** The next attempt's context, prepared while the worker is idle. */
let next: QuickJsAttempt | undefined;
const prepare = () => {
  next ??= new QuickJsAttempt(
    quickjs,
    setup.memoryBytes,
    (message) => {
      post(message);
      // Once an attempt is done, the following one is prepared off the critical path.
      if (typeof message !== 'string' && message.type === 'done') setImmediate(prepare);
    },
    memoryFull,
  );
};

port.on('message', (message: ToWorker) => {
  try {
    if (typeof message === 'string') {
      const { ids, texts } = readAnswers(message);
      current?.answer(ids, texts);
    } else if (message.type === 'run') {
      prepare();
      current = next;
      next = undefined;
      current?.start(message);
    } else if (message.type === 'stop') {
      const clean = current ? current.stop() : true;
      current = undefined;
      post({ type: 'stopped', recycle: !clean });
      setImmediate(prepare);
    }
  } catch (error) {
    post({
      type: 'done',
      ending: { kind: 'crash', message: error instanceof Error ? error.message : String(error) },
      recycle: true,
    });
  }
});

prepare();
post({ type: 'ready' });

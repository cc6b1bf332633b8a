/**
 * WebAssembly.Memory, typed: WebAssembly is not in this project's type libraries (ES2023,
 * Node), so this declares the little the QuickJS worker and its benchmark use.
 */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

export const WasmMemory = (
  globalThis as unknown as {
    WebAssembly: { Memory: new (limits: { initial: number; maximum: number }) => WasmMemory };
  }
).WebAssembly.Memory;

/**
 * Fills in the CRCs of `count` frames in `memory` with crc32c.wat's `fill`: the frame table (i32
 * offsets) at byte `frames`, the sixteen slicing tables at byte `tables`.
 */
export type WasmFrameFiller = (
  memory: WebAssembly.Memory,
  frames: number,
  count: number,
  tables: number,
) => void;

/**
 * Compiles crc32c.wat's module from its base64 bytes (crc32c-wasm.ts) and returns its frame filler,
 * or undefined where WebAssembly cannot compile it (no WebAssembly, or no shared memory). Each call
 * instantiates the module over the memory it is given (cheap; a memory posted to a thread is a
 * new object each time, so there is nothing to cache it by). Self-contained, so that the CRC thread
 * runs its source. Internal.
 */
export function wasmFrameFiller(base64: string): WasmFrameFiller | undefined {
  let module: WebAssembly.Module;
  try {
    module = new WebAssembly.Module(Uint8Array.from(atob(base64), (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
  return (memory, frames, count, tables) => {
    const exports = new WebAssembly.Instance(module, { env: { memory } }).exports as {
      fill: (frames: number, count: number, tables: number) => void;
    };
    exports.fill(frames, count, tables);
  };
}

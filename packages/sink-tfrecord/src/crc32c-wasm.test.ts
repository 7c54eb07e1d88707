import fc from 'fast-check';
import { readFile } from 'node:fs/promises';
import wabtInit from 'wabt';
import { describe, expect, it } from 'vitest';
import { crcThread } from './crc-thread.js';
import { CRC_TABLES, crc32cRange, maskCrc } from './crc32c.js';
import { CRC32C_WASM } from './crc32c-wasm.js';
import { fillFrameCrcs } from './fill-frame-crcs.js';
import { type SharedFrameBuffers, takeSharedFrameBuffers } from './shared-buffers.js';
import { wasmFrameFiller } from './wasm-frame-filler.js';

/**
 * What crc32c-wasm.ts must hold for `bytes` (the module) and `unshared` (the same with its memory
 * import unshared): what the test below compares and `-u` writes.
 */
function generatedSource(bytes: Uint8Array, unshared: Uint8Array): string {
  return `// Generated from crc32c.wat by crc32c-wasm.test.ts: \`pnpm --filter @tfpipe/sink-tfrecord build:wasm\`.
// Do not edit; edit crc32c.wat and run that.

/** crc32c.wat compiled, in base64 (${bytes.length} bytes). Internal. */
export const CRC32C_WASM =
  '${Buffer.from(bytes).toString('base64')}';

/**
 * crc32c.wat compiled with its memory import not shared (${unshared.length} bytes), for pages that are not
 * cross-origin isolated, where shared memory does not exist. Internal.
 */
export const CRC32C_WASM_UNSHARED =
  '${Buffer.from(unshared).toString('base64')}';
`;
}

const PAGE = 65536;
const TABLES_AT = PAGE;

/** A shared memory with the slicing tables at TABLES_AT and room for `bytes` below them. */
function memoryWithTables(): WebAssembly.Memory {
  const memory = new WebAssembly.Memory({ initial: 2, maximum: 2, shared: true });
  CRC_TABLES.forEach((table, index) =>
    new Int32Array(memory.buffer, TABLES_AT + 1024 * index, 256).set(table),
  );
  return memory;
}

const instance = (memory: WebAssembly.Memory) =>
  new WebAssembly.Instance(new WebAssembly.Module(Uint8Array.from(Buffer.from(CRC32C_WASM, 'base64'))), {
    env: { memory },
  }).exports as { crc: (previous: number, start: number, end: number, tables: number) => number };

describe('crc32c.wat', () => {
  it('is what crc32c-wasm.ts holds (run build:wasm after editing it)', async () => {
    const wabt = await wabtInit();
    const source = await readFile(new URL('./crc32c.wat', import.meta.url), 'utf8');
    const unsharedSource = source.replace('(memory 1 65536 shared)', '(memory 1 65536)');
    expect(unsharedSource).not.toBe(source);
    const compile = (text: string): Uint8Array => {
      const module = wabt.parseWat('crc32c.wat', text, { threads: true });
      try {
        // wabt's types leave out validate's features argument, which shared memory needs.
        (module as unknown as { validate(features: { threads: boolean }): void }).validate({ threads: true });
        return module.toBinary({}).buffer;
      } finally {
        module.destroy();
      }
    };
    await expect(generatedSource(compile(source), compile(unsharedSource))).toMatchFileSnapshot(
      './crc32c-wasm.ts',
    );
  });

  it('gives the CRC-32C check value and the RFC 3720 vectors', () => {
    const memory = memoryWithTables();
    const bytes = new Uint8Array(memory.buffer);
    const { crc } = instance(memory);
    bytes.set(new TextEncoder().encode('123456789'));
    expect(crc(0, 0, 9, TABLES_AT) >>> 0).toBe(0xe3069283);
    expect(crc(crc(0, 0, 4, TABLES_AT), 4, 9, TABLES_AT) >>> 0).toBe(0xe3069283);
    bytes.fill(0, 0, 32);
    expect(crc(0, 0, 32, TABLES_AT) >>> 0).toBe(0x8a9136aa);
    bytes.fill(0xff, 0, 32);
    expect(crc(0, 0, 32, TABLES_AT) >>> 0).toBe(0x62a8ab43);
    bytes.set(Uint8Array.from({ length: 32 }, (_, index) => index));
    expect(crc(0, 0, 32, TABLES_AT) >>> 0).toBe(0x46dd794e);
  });

  it('agrees with the JavaScript CRC on random bytes at every alignment and length', () => {
    const memory = memoryWithTables();
    const bytes = new Uint8Array(memory.buffer);
    const view = new DataView(memory.buffer);
    const { crc } = instance(memory);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.nat(15), fc.nat(), (data, skip, previous) => {
        bytes.set(data, skip);
        const end = skip + data.length;
        expect(crc(previous, skip, end, TABLES_AT) >>> 0).toBe(crc32cRange(view, skip, end, previous));
      }),
      { numRuns: 500 },
    );
  });
});

describe('wasmFrameFiller', () => {
  it('fills the same CRCs as fillFrameCrcs, for frames of repeated and changing lengths', () => {
    const fill = wasmFrameFiller(CRC32C_WASM)!;
    expect(fill).toBeTypeOf('function');
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 600 }), { maxLength: 40 }),
        fc.boolean(),
        (records, repeat) => {
          const payloads = repeat ? records.map(() => records[0] ?? new Uint8Array(3)) : records;
          const memory = memoryWithTables();
          const view = new DataView(memory.buffer);
          const bytes = new Uint8Array(memory.buffer);
          const expected = new Uint8Array(new SharedArrayBuffer(PAGE));
          const expectedView = new DataView(expected.buffer);
          const frames: number[] = [];
          let at = 3;
          for (const payload of payloads) {
            frames.push(at);
            for (const target of [view, expectedView]) target.setBigUint64(at, BigInt(payload.length), true);
            bytes.set(payload, at + 12);
            expected.set(payload, at + 12);
            at += payload.length + 16;
          }
          const framesAt = at + 1 + ((4 - ((at + 1) % 4)) % 4);
          new Int32Array(memory.buffer, framesAt, frames.length).set(frames);
          fill(memory, framesAt, frames.length, TABLES_AT);
          fillFrameCrcs(expectedView, Int32Array.from(frames), frames.length, crc32cRange);
          expect(bytes.subarray(0, at)).toEqual(expected.subarray(0, at));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is undefined when the module cannot be compiled', () => {
    expect(wasmFrameFiller('AGFzbQ==')).toBeUndefined();
  });
});

describe('the CRC thread', () => {
  /** Frames "123456789" at byte 0 of `buffers` on the thread and returns its stored data CRC. */
  async function frameCheckValue(buffers: SharedFrameBuffers): Promise<number> {
    const view = new DataView(buffers.buffer.buffer, buffers.buffer.byteOffset);
    view.setBigUint64(0, 9n, true);
    buffers.buffer.set(new TextEncoder().encode('123456789'), 12);
    buffers.frames[0] = 0;
    await crcThread.frame(buffers, 1);
    return view.getUint32(21, true);
  }

  it("frames a WebAssembly memory's buffer with crc32c.wat, over the tables in that memory", async () => {
    expect(await crcThread.whenReady()).toBe(true);
    const buffers = takeSharedFrameBuffers(64 * 1024);
    expect(await frameCheckValue(buffers)).toBe(maskCrc(0xe3069283));
    // The JavaScript CRC has tables of its own: only the module reads these.
    new Int32Array(buffers.memory!.buffer, buffers.tables, 256).fill(0);
    expect(await frameCheckValue(buffers)).not.toBe(maskCrc(0xe3069283));
  });

  it('frames plain shared buffers with the JavaScript CRC', async () => {
    expect(await crcThread.whenReady()).toBe(true);
    const buffers = {
      buffer: new Uint8Array(new SharedArrayBuffer(1024)),
      frames: new Int32Array(new SharedArrayBuffer(64)),
      state: new Int32Array(new SharedArrayBuffer(4)),
      tables: 0,
    };
    expect(await frameCheckValue(buffers)).toBe(maskCrc(0xe3069283));
  });
});

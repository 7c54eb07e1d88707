/**
 * Test-only helpers: temp files, byte streams cut into tiny chunks, and a minimal independent reader
 * of TFRecord framing + tf.train.Example protobuf (written from FORMAT.md, not from our writer), used
 * to read TFX's own output.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { TfpipeError } from '@tfpipe/core';

export async function withTempDir<T>(run: (directory: string) => Promise<T>): Promise<T> {
  const directory = await mkdtemp(path.join(tmpdir(), 'tfpipe-csv-'));
  try {
    return await run(directory);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

export async function writeTemp(
  directory: string,
  name: string,
  content: string | Uint8Array,
): Promise<string> {
  const file = path.join(directory, name);
  await writeFile(file, content);
  return file;
}

/** A byte stream delivering `bytes` in chunks of the given sizes (cycled). */
export function chunkedStream(bytes: Uint8Array, sizes: readonly number[]): ReadableStream<Uint8Array> {
  let offset = 0;
  let turn = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      const size = Math.max(1, sizes[turn++ % sizes.length] ?? 1);
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

export async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const items: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return items;
    items.push(value);
  }
}

/** Resolves with the error a stream fails with (or throws if it does not fail). */
export async function failure(stream: ReadableStream<unknown>): Promise<TfpipeError> {
  try {
    await collect(stream);
  } catch (error) {
    if (TfpipeError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the stream to fail');
}

// ---- minimal TFRecord + Example reader ----

export type DecodedFeature =
  | { kind: 'bytes'; value: Uint8Array[] }
  | { kind: 'float'; value: number[] }
  | { kind: 'int64'; value: bigint[] }
  | { kind: 'none'; value: [] };

/** Splits TFRecord framing (no CRC check: the corpus file is trusted; lengths are checked). */
export function readFrames(data: Uint8Array): Uint8Array[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const frames: Uint8Array[] = [];
  let offset = 0;
  while (offset < data.length) {
    const length = Number(view.getBigUint64(offset, true));
    if (offset + 12 + length + 4 > data.length) throw new Error(`truncated record at ${offset}`);
    frames.push(data.subarray(offset + 12, offset + 12 + length));
    offset += 16 + length;
  }
  return frames;
}

class Cursor {
  offset = 0;
  constructor(readonly bytes: Uint8Array) {}
  get done(): boolean {
    return this.offset >= this.bytes.length;
  }
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = this.bytes[this.offset++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  }
  chunk(): Uint8Array {
    const length = Number(this.varint());
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.offset += 8;
    else if (wire === 2) this.chunk();
    else if (wire === 5) this.offset += 4;
    else throw new Error(`wire type ${wire}`);
  }
}

function fields(bytes: Uint8Array, visit: (field: number, wire: number, cursor: Cursor) => void): void {
  const cursor = new Cursor(bytes);
  while (!cursor.done) {
    const tag = Number(cursor.varint());
    visit(tag >>> 3, tag & 7, cursor);
  }
}

function decodeFeature(bytes: Uint8Array): DecodedFeature {
  let feature: DecodedFeature = { kind: 'none', value: [] };
  fields(bytes, (field, wire, cursor) => {
    if (field < 1 || field > 3 || wire !== 2) return cursor.skip(wire);
    const list = cursor.chunk();
    if (field === 1) {
      const value: Uint8Array[] = [];
      fields(list, (f, w, c) => (f === 1 && w === 2 ? void value.push(c.chunk()) : c.skip(w)));
      feature = { kind: 'bytes', value };
    } else if (field === 2) {
      const value: number[] = [];
      fields(list, (f, w, c) => {
        if (f === 1 && w === 2) {
          const packed = c.chunk();
          const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
          for (let i = 0; i < packed.length; i += 4) value.push(view.getFloat32(i, true));
        } else if (f === 1 && w === 5) {
          value.push(new DataView(c.bytes.buffer, c.bytes.byteOffset + c.offset, 4).getFloat32(0, true));
          c.offset += 4;
        } else c.skip(w);
      });
      feature = { kind: 'float', value };
    } else {
      const value: bigint[] = [];
      fields(list, (f, w, c) => {
        if (f === 1 && w === 2) {
          const packed = new Cursor(c.chunk());
          while (!packed.done) value.push(BigInt.asIntN(64, packed.varint()));
        } else if (f === 1 && w === 0) value.push(BigInt.asIntN(64, c.varint()));
        else c.skip(w);
      });
      feature = { kind: 'int64', value };
    }
  });
  return feature;
}

/** Decodes a serialized tf.train.Example into name → feature. */
export function decodeExampleBytes(bytes: Uint8Array): Record<string, DecodedFeature> {
  const features: Record<string, DecodedFeature> = {};
  const decoder = new TextDecoder();
  fields(bytes, (field, wire, cursor) => {
    if (field !== 1 || wire !== 2) return cursor.skip(wire);
    fields(cursor.chunk(), (f, w, c) => {
      if (f !== 1 || w !== 2) return c.skip(w);
      let key = '';
      let value: DecodedFeature = { kind: 'none', value: [] };
      fields(c.chunk(), (ef, ew, ec) => {
        if (ef === 1 && ew === 2) key = decoder.decode(ec.chunk());
        else if (ef === 2 && ew === 2) value = decodeFeature(ec.chunk());
        else ec.skip(ew);
      });
      features[key] = value;
    });
  });
  return features;
}

// Test-only reading of TFRecord files written by TensorFlow: framing (u64 length, u32 masked CRC,
// data, u32 masked CRC; CRCs not checked here, the sink package tests those) and a minimal
// tf.train.Example decoder. Used when core's decodeExample is not built yet; otherwise core's is used.
import * as core from '@tfpipe/core';
import type { Example, Feature } from '@tfpipe/core';

/** The payloads of every record of an uncompressed TFRecord file. */
export function framedRecords(file: Uint8Array): Uint8Array[] {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const records: Uint8Array[] = [];
  let offset = 0;
  while (offset < file.length) {
    if (offset + 12 > file.length) throw new Error(`truncated header at ${offset}`);
    const length = Number(view.getBigUint64(offset, true));
    const start = offset + 12;
    if (start + length + 4 > file.length) throw new Error(`truncated record at ${offset}`);
    records.push(file.subarray(start, start + length));
    offset = start + length + 4;
  }
  return records;
}

function fields(data: Uint8Array): { field: number; wire: number; value: bigint | Uint8Array }[] {
  const out: { field: number; wire: number; value: bigint | Uint8Array }[] = [];
  let index = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = data[index++]!;
      result |= BigInt(byte & 0x7f) << shift;
      shift += 7n;
      if (byte < 0x80) return result;
    }
  };
  while (index < data.length) {
    const tag = Number(varint());
    const wire = tag & 7;
    if (wire === 0) out.push({ field: tag >> 3, wire, value: varint() });
    else if (wire === 2) {
      const length = Number(varint());
      out.push({ field: tag >> 3, wire, value: data.subarray(index, index + length) });
      index += length;
    } else if (wire === 5) {
      out.push({ field: tag >> 3, wire, value: data.subarray(index, index + 4) });
      index += 4;
    } else throw new Error(`wire type ${wire}`);
  }
  return out;
}

function localDecode(data: Uint8Array): Example {
  const features: Record<string, Feature> = {};
  for (const outer of fields(data)) {
    for (const entry of fields(outer.value as Uint8Array)) {
      const parts = fields(entry.value as Uint8Array);
      const key = new TextDecoder().decode(parts.find((part) => part.field === 1)!.value as Uint8Array);
      const featureBytes =
        (parts.find((part) => part.field === 2)?.value as Uint8Array | undefined) ?? new Uint8Array();
      const kinds = fields(featureBytes);
      const first = kinds[0];
      if (first === undefined) {
        features[key] = { kind: 'none', value: [] };
        continue;
      }
      const list = fields(first.value as Uint8Array);
      if (first.field === 1)
        features[key] = { kind: 'bytes', value: list.map((item) => item.value as Uint8Array) };
      else if (first.field === 2) {
        const floats: number[] = [];
        for (const item of list) {
          const chunk = item.value as Uint8Array;
          const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          for (let offset = 0; offset < chunk.length; offset += 4) floats.push(view.getFloat32(offset, true));
        }
        features[key] = { kind: 'float', value: floats };
      } else {
        const ints: bigint[] = [];
        for (const item of list) {
          if (item.wire === 0) ints.push(BigInt.asIntN(64, item.value as bigint));
          else {
            for (const packed of fields(new Uint8Array([...encodeTagless(item.value as Uint8Array)])))
              ints.push(BigInt.asIntN(64, packed.value as bigint));
          }
        }
        features[key] = { kind: 'int64', value: ints };
      }
    }
  }
  return { features };
}

// Packed varints re-tagged as field 1 varints so `fields` can walk them.
function* encodeTagless(packed: Uint8Array): Generator<number> {
  let atStart = true;
  for (const byte of packed) {
    if (atStart) yield 0x08;
    yield byte;
    atStart = byte < 0x80;
  }
}

/** Core's decodeExample when built, else the local one; says which. */
export function exampleDecoder(): { decode: (data: Uint8Array) => Example; source: 'core' | 'local' } {
  const candidate = (core as unknown as { decodeExample?: (data: Uint8Array) => Example }).decodeExample;
  return typeof candidate === 'function'
    ? { decode: candidate, source: 'core' }
    : { decode: localDecode, source: 'local' };
}

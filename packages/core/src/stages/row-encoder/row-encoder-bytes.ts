/** Byte-level helpers of the direct row encoder: templates, sizes, copies, varints. */
import { encodeExample } from '../../codec/encode-example.js';
import { varintSize, writeVarint, writeVarint64 } from '../../codec/varint.js';
import { FLOAT_LIST_TAG, INT64_LIST_TAG, LIST_VALUE_TAG, MAP_ENTRY_TAG } from '../../codec/wire-tags.js';
import type { Feature } from '../../model/feature.js';
import type { RowSlots } from '../spec/row-cells.js';

/** Precomputed bytes, also as little-endian 32-bit words for a faster copy. */
export interface Template {
  readonly length: number;
  readonly words: Uint32Array;
}

/**
 * The bytes of a one-value entry before the value: `0a E 0a keyLength key 12 V` and the list header
 * (`12 06 0a 04` for float; `1a (2+s) 0a s` for an int64 varint of s bytes).
 * @param size - float: 0; int64: the varint's size s, 1 to 10
 */
export function template(kind: string, prefix: Uint8Array, size: number): Template {
  const feature = kind === 'float' ? 8 : 4 + size;
  const list =
    kind === 'float'
      ? [FLOAT_LIST_TAG, 0x06, LIST_VALUE_TAG, 0x04]
      : [INT64_LIST_TAG, 2 + size, LIST_VALUE_TAG, size];
  const entry = prefix.length + varintSize(feature) + feature;
  const out = new Uint8Array(1 + varintSize(entry) + prefix.length + varintSize(feature) + list.length);
  out[0] = MAP_ENTRY_TAG;
  let position = writeVarint(out, 1, entry);
  out.set(prefix, position);
  position = writeVarint(out, position + prefix.length, feature);
  out.set(list, position);
  const words = new Uint32Array(Math.ceil(out.length / 4));
  for (let index = 0; index < out.length; index++) words[index >> 2]! |= out[index]! << ((index & 3) * 8);
  return { length: out.length, words };
}

export function fieldSize(payload: number): number {
  return 1 + varintSize(payload) + payload;
}

/** The size of a Feature message holding one list of `payload` bytes. */
export function listSize(payload: number): number {
  return 1 + varintSize(payload) + payload;
}

export function bigSize(slots: RowSlots, slot: number): number {
  const value = slots.objects[slot] as bigint;
  if (value < 0n) return 10;
  return value < 0x100000000000000n ? 8 : value < 0x8000000000000000n ? 9 : 10;
}

export function copy(source: Uint8Array, target: Uint8Array, position: number): number {
  const length = source.length;
  if (length > 24) {
    target.set(source, position);
    return position + length;
  }
  for (let index = 0; index < length; index++) target[position + index] = source[index]!;
  return position + length;
}

/** A negative safe integer as the 10-byte varint of its 64-bit two's complement, without a bigint. */
export function writeNegative(target: Uint8Array, position: number, value: number): number {
  return writeVarint64(target, position, value >>> 0, Math.floor(value / 0x1_0000_0000) >>> 0);
}

/** The map entry bytes of one feature, cut from the Example the codec writes for it alone. */
export function entryBytes(name: string, feature: Feature): Uint8Array {
  const features = Object.create(null) as Record<string, Feature>;
  features[name] = feature;
  const bytes = encodeExample({ features });
  // Skip the Example's own header: its tag and the varint length of the Features message.
  let start = 1;
  while ((bytes[start]! & 0x80) !== 0) start++;
  return bytes.slice(start + 1);
}

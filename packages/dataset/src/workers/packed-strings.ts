import type { Tensor } from '../tensor.js';

/** A tensor's byte strings as they cross threads: back to back in one buffer, value `i` ending at `ends[i]`. */
export interface PackedStrings {
  readonly bytes: Uint8Array;
  readonly ends: Int32Array;
}

/**
 * Moves the byte strings of each `'string'` tensor of `batch` into one buffer per tensor (its `data`
 * left empty), so a batch crosses threads as a few transferable buffers rather than one cloned
 * `Uint8Array` per value. Returns the packed strings by name, and pushes their buffers to `transfer`.
 */
export function packStrings(
  batch: Record<string, Tensor>,
  transfer: ArrayBuffer[],
): Record<string, PackedStrings> {
  const packed: Record<string, PackedStrings> = {};
  for (const name of Object.keys(batch)) {
    const tensor = batch[name]!;
    if (tensor.dtype !== 'string') continue;
    const values = tensor.data as Uint8Array[];
    let total = 0;
    for (const value of values) total += value.length;
    const bytes = new Uint8Array(total);
    const ends = new Int32Array(values.length);
    let at = 0;
    for (let index = 0; index < values.length; index++) {
      const value = values[index]!;
      bytes.set(value, at);
      at += value.length;
      ends[index] = at;
    }
    packed[name] = { bytes, ends };
    batch[name] = { ...tensor, data: [] };
    transfer.push(bytes.buffer, ends.buffer);
  }
  return packed;
}

/** Puts the strings {@link packStrings} moved back into their tensors, each value a view of the packed buffer. */
export function unpackStrings(batch: Record<string, Tensor>, packed: Record<string, PackedStrings>): void {
  for (const name of Object.keys(packed)) {
    const { bytes, ends } = packed[name]!;
    const values = new Array<Uint8Array>(ends.length);
    const { buffer, byteOffset } = bytes;
    let start = 0;
    for (let index = 0; index < ends.length; index++) {
      const end = ends[index]!;
      // The constructor rather than `subarray`, which looks up the species constructor per value.
      values[index] = new Uint8Array(buffer, byteOffset + start, end - start);
      start = end;
    }
    batch[name] = { ...batch[name]!, data: values };
  }
}

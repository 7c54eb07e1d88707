// Test helpers: tensors as plain nested lists, so a test can state TensorFlow's expected outputs
// the way parsing_ops_test.py writes them. Not exported from the package.
import { encodeExample, example } from '@tfpipe/core';
import type { Feature } from '@tfpipe/core';
import type { Tensor } from '../tensor.js';

const decoder = new TextDecoder();

/** A serialized Example of these features (core's writer). */
export function serialize(features: Readonly<Record<string, Feature>>): Uint8Array {
  return encodeExample(example(features));
}

/** A tensor's values as plain numbers or strings. */
export function plain(tensor: Tensor): (number | string)[] {
  return Array.from(tensor.data as ArrayLike<number | bigint | Uint8Array>, (value) =>
    typeof value === 'bigint' ? Number(value) : value instanceof Uint8Array ? decoder.decode(value) : value,
  );
}

/** A sparse tensor's indices as rows of numbers. */
export function indexRows(tensor: Tensor): number[][] {
  if (tensor.kind !== 'sparse') throw new Error(`expected a sparse tensor, got ${tensor.kind}`);
  const rank = tensor.denseShape.length;
  const rows: number[][] = [];
  for (let row = 0; row < tensor.indices.length / rank; row++) {
    rows.push(Array.from(tensor.indices.subarray(row * rank, row * rank + rank), Number));
  }
  return rows;
}

/** A sparse tensor as `[indices, values, denseShape]`, the triple parsing_ops_test.py compares. */
export function sparseTriple(tensor: Tensor): [number[][], (number | string)[], number[]] {
  if (tensor.kind !== 'sparse') throw new Error(`expected a sparse tensor, got ${tensor.kind}`);
  return [indexRows(tensor), plain(tensor), [...tensor.denseShape]];
}

/** A ragged tensor as nested lists, batch first. */
export function raggedList(tensor: Tensor): unknown[] {
  if (tensor.kind !== 'ragged') throw new Error(`expected a ragged tensor, got ${tensor.kind}`);
  let items: unknown[] = plain(tensor);
  for (let level = tensor.rowSplits.length - 1; level >= 0; level--) {
    const splits = tensor.rowSplits[level] as Int32Array;
    const rows: unknown[] = [];
    for (let row = 0; row + 1 < splits.length; row++) rows.push(items.slice(splits[row], splits[row + 1]));
    items = rows;
  }
  return items;
}

/** A length-delimited field: its tag, its length as a varint, its payload. */
export function field(tag: number, payload: Uint8Array): Uint8Array {
  const length: number[] = [];
  for (let rest = payload.length; ; rest >>>= 7) {
    if (rest < 0x80) {
      length.push(rest);
      break;
    }
    length.push((rest & 0x7f) | 0x80);
  }
  return new Uint8Array([tag, ...length, ...payload]);
}

/** Each batch of a pass over `dataset` as `{ name: { shape, values } }` with {@link plain} values. */
export async function batchesOf(dataset: AsyncIterable<Record<string, Tensor>>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const batch of dataset)
    out.push(
      Object.fromEntries(
        Object.entries(batch).map(([name, tensor]) => [name, { shape: tensor.shape, values: plain(tensor) }]),
      ),
    );
  return out;
}

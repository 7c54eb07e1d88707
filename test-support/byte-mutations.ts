// Byte mutations for fuzz tests: flips, overwrites, insertions, deletions and truncations aimed at a
// region of a file that the caller locates (a header, a footer, the tail …).

/** One change to a file's bytes; `at` is reduced into the region the caller's `offsetIn` picks. */
export type Mutation<Region extends string> =
  | { readonly kind: 'flip'; readonly region: Region; readonly at: number; readonly bit: number }
  | { readonly kind: 'overwrite'; readonly region: Region; readonly at: number; readonly data: number[] }
  | { readonly kind: 'insert'; readonly region: Region; readonly at: number; readonly data: number[] }
  | { readonly kind: 'delete'; readonly region: Region; readonly at: number; readonly count: number }
  | { readonly kind: 'truncate'; readonly at: number };

/** A copy of `original` with the mutations applied in order. */
export function applyMutations<Region extends string>(
  original: Uint8Array,
  mutations: readonly Mutation<Region>[],
  offsetIn: (bytes: Uint8Array, region: Region, at: number) => number,
): Uint8Array<ArrayBuffer> {
  let bytes = original.slice();
  for (const change of mutations) {
    if (bytes.length === 0) break;
    if (change.kind === 'truncate') {
      bytes = bytes.slice(0, change.at % bytes.length);
      continue;
    }
    const offset = offsetIn(bytes, change.region, change.at);
    if (change.kind === 'flip') bytes[offset]! ^= 1 << change.bit;
    else if (change.kind === 'overwrite') bytes.set(change.data.slice(0, bytes.length - offset), offset);
    else if (change.kind === 'insert') {
      bytes = Uint8Array.from([...bytes.subarray(0, offset), ...change.data, ...bytes.subarray(offset)]);
    } else {
      bytes = Uint8Array.from([...bytes.subarray(0, offset), ...bytes.subarray(offset + change.count)]);
    }
  }
  return bytes;
}

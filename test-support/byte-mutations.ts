// Byte mutations for fuzz tests: flips, overwrites, insertions, deletions and truncations aimed at a
// region of a file that the caller locates (a header, a footer, the tail …).

import fc from 'fast-check';

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

/** What a format's fuzz test varies: its regions (repeated for weight) and the bytes that hurt it. */
export interface MutationShape<Region extends string> {
  /** Regions a mutation aims at, each as often as it should be picked. */
  readonly regions: readonly Region[];
  /** Byte values that make this format's sizes, markers or tags hostile; any byte is mixed in too. */
  readonly hostileBytes: readonly number[];
  /** Longest overwrite, in bytes. */
  readonly maxOverwrite: number;
  /** Most bytes one deletion removes. */
  readonly maxDelete: number;
}

/** Random {@link Mutation}s of every kind for a format (insertions up to 8 bytes). */
export function mutationArbitrary<Region extends string>(
  shape: MutationShape<Region>,
): fc.Arbitrary<Mutation<Region>> {
  const hostileByte = fc.oneof(fc.constantFrom(...shape.hostileBytes), fc.integer({ min: 0, max: 255 }));
  const region = fc.constantFrom(...shape.regions);
  const at = fc.nat();
  return fc.oneof(
    fc.record({ kind: fc.constant('flip' as const), region, at, bit: fc.integer({ min: 0, max: 7 }) }),
    fc.record({
      kind: fc.constant('overwrite' as const),
      region,
      at,
      data: fc.array(hostileByte, { minLength: 1, maxLength: shape.maxOverwrite }),
    }),
    fc.record({
      kind: fc.constant('insert' as const),
      region,
      at,
      data: fc.array(hostileByte, { minLength: 1, maxLength: 8 }),
    }),
    fc.record({
      kind: fc.constant('delete' as const),
      region,
      at,
      count: fc.integer({ min: 1, max: shape.maxDelete }),
    }),
    fc.record({ kind: fc.constant('truncate' as const), at }),
  );
}

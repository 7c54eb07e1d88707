import { readInt64, readLength, varintResult } from '../wire/wire-varint.js';
import { stringBlocks } from './string-blocks.js';

/** How a slot's values are stored, as the dense reader codes them. */
export const INT64 = 0;
export const INT32 = 1;
export const NUMBER = 2;
export const FLOAT32 = 3;
export const BYTES = 4;
/** The `tf.train.Feature` tag of each mode's list: int64_list, float_list, bytes_list. */
export const LIST_TAGS = [0x1a, 0x1a, 0x1a, 0x12, 0x0a];

/** One map entry of an Example, in the order a record gave it. */
export interface LayoutEntry {
  /** The spec slot of its key, or -1 for a key the spec does not name (skipped). */
  readonly slot: number;
  /** The key's bytes (under 128 of them). */
  readonly key: Uint8Array;
  /** Whether its numbers come packed (`0a length values`) rather than one tagged value each. */
  readonly packed: boolean;
}

/**
 * Reads one Example in `bytes[start, end)` into row `row`; false when it is not of the layout.
 * `outputs[slot]` is the batch array the slot's values go to (a float32 slot's as an `Int32Array` of
 * the same bytes, `floatBytes[slot]` as bytes); byte strings are copied into the thread's
 * {@link stringBlocks}.
 */
export type GeneratedRead = (
  bytes: Uint8Array,
  start: number,
  end: number,
  row: number,
  outputs: readonly unknown[],
  floatBytes: readonly Uint8Array[],
) => boolean;

/** Above this many map entries the generated function grows large for little gain: the loop reads them. */
export const MAX_GENERATED_ENTRIES = 256;
/** Above this many key bytes in all, likewise. */
const MAX_KEY_BYTES = 8192;
/** Up to this many numbers (or strings) of one feature are read in line, more in a loop. */
const UNROLL = 4;
/** Up to this many packed floats are copied byte by byte, more through one `set`. */
const SMALL_COPY = 16;

/**
 * Readers by their source text, shared by every parser: one function per layout in the process, so a
 * spec built again (each pass of a dataset) reuses the code V8 has optimized. A function made anew for
 * each parser starts cold, and one this large runs many calls before V8 optimizes it. A reader sees
 * only its arguments (the bytes, the batch arrays) and objects that live as long as the thread (the
 * varint helpers, the string blocks): optimized code that embedded an object of one dataset or parser
 * would be dropped by V8 when that object dies, and compiled again for the next.
 */
const readers = new Map<string, GeneratedRead | undefined>();
const MAX_CACHED_READERS = 64;

/**
 * Generates the reader of one layout: the Example's entries in `layout`'s order, each key compared
 * byte by byte with constants at the place it must start, each list's tag, packing and count checked,
 * and the values stored straight into the slot's batch array, as straight-line code. Any difference
 * (another order, key, kind, packing or count, a missing, extra or repeated entry, an int64 out of the
 * dtype's range, malformed bytes) returns false and the caller reads the record another way, so errors
 * never come from here. Returns undefined for a layout over the size limits, or where code cannot be
 * generated (a Content-Security-Policy without `unsafe-eval`).
 */
export function generateRead(
  layout: readonly LayoutEntry[],
  modes: Uint8Array,
  elements: Int32Array,
): GeneratedRead | undefined {
  if (layout.length === 0 || layout.length > MAX_GENERATED_ENTRIES) return undefined;
  let keyBytes = 0;
  for (const entry of layout) keyBytes += entry.key.length;
  if (keyBytes > MAX_KEY_BYTES) return undefined;
  const lines: string[] = [];
  const used = new Set<number>();
  for (const entry of layout) {
    lines.push(
      ...entryCode(
        entry,
        entry.slot < 0 ? -1 : modes[entry.slot]!,
        entry.slot < 0 ? 0 : elements[entry.slot]!,
      ),
    );
    if (entry.slot >= 0) used.add(entry.slot);
  }
  const outputs = [...used]
    .map((slot) => {
      const bytes =
        modes[slot] === FLOAT32 && elements[slot]! > SMALL_COPY ? ` const u${slot} = U[${slot}];` : '';
      return `const o${slot} = A[${slot}];${bytes}`;
    })
    .join('\n');
  const body = `'use strict';
return function generatedRead(b, start, end, row, A, U) {
if (start >= end || b[start] !== 10) return false;
${outputs}
let p = start + 1, l = 0, e = 0, v = 0, lo = 0, hi = 0, x = 0, o = 0, k = 0;
${length('end')}
if (p + l !== end) return false;
${lines.join('\n')}
return p === end;
};`;
  if (readers.has(body)) return readers.get(body);
  let read: GeneratedRead | undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the body holds only numbers: key bytes, counts and tags
    const make = new Function('rl', 'ri', 'r', 'dr', body) as (
      rl: typeof readLength,
      ri: typeof readInt64,
      r: typeof varintResult,
      dr: typeof stringBlocks,
    ) => GeneratedRead;
    read = make(readLength, readInt64, varintResult, stringBlocks);
  } catch {
    read = undefined;
  }
  if (readers.size >= MAX_CACHED_READERS) readers.clear();
  readers.set(body, read);
  return read;
}

/** A varint length at `p` (one byte in line, longer through `rl`), within `limit`, into `l`. */
function length(limit: string): string {
  return `l = b[p]; if (l < 128 && p < ${limit}) p++; else { p = rl(b, p, ${limit}); if (p < 0) return false; l = r.low; }`;
}

function entryCode(entry: LayoutEntry, mode: number, count: number): string[] {
  const key = entry.key;
  const keyChecks = Array.from(key, (byte, at) => ` || b[p + ${at + 2}] !== ${byte}`).join('');
  const code = [
    `if (p >= end || b[p] !== 10) return false;`,
    `p++; ${length('end')}`,
    `e = p + l;`,
    `if (e > end || p + ${key.length + 3} >= e || b[p] !== 10 || b[p + 1] !== ${key.length}${keyChecks} || b[p + ${key.length + 2}] !== 18) return false;`,
    `p += ${key.length + 3}; ${length('e')}`,
  ];
  if (mode < 0) {
    code.push(`if (p + l !== e) return false;`, `p = e;`);
    return code;
  }
  code.push(
    `if (p + l !== e || l === 0 || b[p] !== ${LIST_TAGS[mode]}) return false;`,
    `p++; ${length('e')}`,
    `if (p + l !== e) return false;`,
  );
  const out = `o${entry.slot}`;
  if (count === 0) code.push(`if (p !== e) return false;`);
  else if (mode === BYTES) code.push(...byteValues(out, count));
  else if (mode === FLOAT32) code.push(...floatValues(entry.slot, count, entry.packed));
  else code.push(...intValues(out, count, entry.packed, mode));
  code.push(`p = e;`);
  return code;
}

/** Statements run once per value (in line for a few, in a loop over `k` for more), at index `o + k`. */
function repeat(count: number, statements: (index: string) => string[]): string[] {
  if (count <= UNROLL) return Array.from({ length: count }, (_, at) => statements(`o + ${at}`)).flat();
  return [`for (k = 0; k < ${count}; k++) {`, ...statements('o + k'), `}`];
}

function byteValues(out: string, count: number): string[] {
  return [
    `o = row * ${count};`,
    ...repeat(count, (index) => [
      `if (p >= e || b[p] !== 10) return false;`,
      `p++; ${length('e')}`,
      `v = p + l; if (v > e) return false;`,
      `${out}[${index}] = dr.copy(b, p, v); p = v;`,
    ]),
    `if (p !== e) return false;`,
  ];
}

/** The little-endian 32-bit word at `at` (an expression): a float's bit pattern, stored whole. */
function word(at: string): string {
  return `b[${at}] | (b[${at} + 1] << 8) | (b[${at} + 2] << 16) | (b[${at} + 3] << 24)`;
}

/**
 * A float32 slot's values: each float's 4 bytes stored as one word of `o<slot>` (an `Int32Array` of
 * the batch's floats, so every bit pattern, NaN payloads included, is kept), or, for a packed list
 * of more than {@link SMALL_COPY}, copied as bytes into `u<slot>` with one `set`.
 */
function floatValues(slot: number, count: number, packed: boolean): string[] {
  const out = `o${slot}`;
  /** The number of the value at `index` (`o + 2` → `2`, `o + k` → `k`). */
  const valueOf = (index: string): string => index.replace('o + ', '');
  if (!packed)
    return [
      `if (e - p !== ${count * 5}) return false;`,
      `o = row * ${count};`,
      ...repeat(count, (index) => [
        `if (b[p] !== 13) return false;`,
        `${out}[${index}] = ${word('p + 1')}; p += 5;`,
      ]),
    ];
  const bytes = count * 4;
  const head = [
    `if (b[p] !== 10) return false;`,
    `p++; ${length('e')}`,
    `if (l !== ${bytes} || p + l !== e) return false;`,
  ];
  if (count > SMALL_COPY) return [...head, `u${slot}.set(b.subarray(p, e), row * ${bytes});`];
  return [
    ...head,
    `o = row * ${count};`,
    ...repeat(count, (index) => [`x = p + (${valueOf(index)}) * 4; ${out}[${index}] = ${word('x')};`]),
  ];
}

function intValues(out: string, count: number, packed: boolean, mode: number): string[] {
  const head = packed
    ? [`if (b[p] !== 10) return false;`, `p++; ${length('e')}`, `if (p + l !== e) return false;`]
    : [];
  const store = (index: string): string[] => {
    if (mode === INT64) return [`x = (${index}) * 2; ${out}[x] = lo; ${out}[x + 1] = hi;`];
    if (mode === INT32) return [`if (hi !== (lo | 0) >> 31) return false;`, `${out}[${index}] = lo;`];
    return [
      `x = hi * 4294967296 + lo;`,
      `if (hi < -2097152 || hi > 2097151 || !Number.isSafeInteger(x)) return false;`,
      `${out}[${index}] = x;`,
    ];
  };
  return [
    ...head,
    `o = row * ${count};`,
    ...repeat(count, (index) => [
      ...(packed ? [] : [`if (p >= e || b[p] !== 8) return false;`, `p++;`]),
      `v = b[p];`,
      // One and two bytes (values below 16384) in line, longer varints through `ri`.
      `if (v < 128 && p < e) { lo = v; hi = 0; p++; }`,
      `else if (p + 1 < e && b[p + 1] < 128) { lo = (v & 127) | (b[p + 1] << 7); hi = 0; p += 2; }`,
      `else { p = ri(b, p, e); if (p < 0) return false; lo = r.low; hi = r.high; }`,
      ...store(index),
    ]),
    `if (p !== e) return false;`,
  ];
}

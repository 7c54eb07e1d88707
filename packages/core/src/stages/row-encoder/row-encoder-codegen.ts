import type { Position } from '../../errors/tfpipe-error.js';
import { EncodedExample, FRAME_HEADER_BYTES, FRAME_TRAILER_BYTES } from '../../codec/encoded-example.js';
import { varintSize, writeVarint } from '../../codec/varint.js';
import { plainDecimal, smallInteger } from '../../text/plain-decimal.js';
import { FLOAT, INT64 } from '../spec/row-cells.js';
import { ByteRange, NumberCell, copyRange } from './byte-range.js';
import { copy, writeNegative } from './row-encoder-bytes.js';
import {
  BYTES_LIST_TAG,
  EXAMPLE_FEATURES_TAG,
  FLOAT_LIST_TAG,
  INT64_LIST_TAG,
  LIST_VALUE_TAG,
  MAP_ENTRY_TAG,
} from '../../codec/wire-tags.js';

/** What the generated writer needs to know of one feature. */
export interface GeneratedFeature {
  readonly kind: number;
  /** `0a keyLength key 12`: the map entry's key field and the value field's tag. */
  readonly prefix: Uint8Array;
  /** The whole entry written for a missing cell; `'omit'` leaves it out; undefined refuses the row. */
  readonly missing: Uint8Array | 'omit' | undefined;
  /** A string cell is split into a list: the generated writer refuses it. */
  readonly split: boolean;
}

/** The chunk rows are written into, shared by the generated writer and the general encoder. */
export interface RowChunk {
  bytes: Uint8Array;
  view: DataView;
  used: number;
  /** Makes room for `length` more bytes (a new chunk when the current one is full). */
  reserve(length: number): void;
}

/** Encodes a row's cells, or returns undefined when any cell is not of the common kinds handled. */
export type GeneratedRowWriter = (
  cells: readonly unknown[],
  position: Position | undefined,
) => EncodedExample | undefined;

/** The generated function: the chunk and the missing entries are arguments, so one function serves every encoder of the same spec. */
type SharedRowWriter = (
  cells: readonly unknown[],
  chunk: RowChunk,
  missingEntries: readonly Uint8Array[],
  position: Position | undefined,
) => EncodedExample | undefined;

/**
 * Generated writers by their source text. A spec built again (every run of a pipeline) reuses the
 * function V8 has already optimized, instead of warming a new one up.
 */
const generatedWriters = new Map<string, SharedRowWriter>();
const MAX_CACHED_WRITERS = 64;

/** Each row keeps room around its bytes for its TFRecord frame (see `EncodedExample.frameRoom`). */
const FRAME_ROOM = FRAME_HEADER_BYTES + FRAME_TRAILER_BYTES;

/** Beyond this many features the generated function grows large for little gain: the loop is used. */
const MAX_FEATURES = 256;

/**
 * Generates a writer specialised to one spec: every feature's constant bytes (its name, tags and
 * lengths) become literal stores, in the key order the wire format needs, and each cell is checked
 * and sized in straight-line code. It handles the common cells exactly as the general encoder does
 * (safe-integer numbers and bigints, and integer strings for int64; numbers and plain decimal strings for float;
 * `NumberCell`s for both; strings, `Uint8Array`s and `ByteRange`s for bytes; missing cells by the feature's policy) and refuses any row
 * with another cell, which the general encoder then takes. Returns undefined where code cannot be
 * generated (a Content-Security-Policy without `unsafe-eval`) or the spec is very wide.
 * @param order - feature indexes in the UTF-8 byte order of their names
 */
export function generateRowWriter(
  features: readonly GeneratedFeature[],
  order: readonly number[],
  chunk: RowChunk,
): GeneratedRowWriter | undefined {
  if (features.length > MAX_FEATURES) return undefined;
  const parse: string[] = [];
  const write: string[] = [];
  const missingEntries: Uint8Array[] = [];
  for (const [index, feature] of features.entries()) parse.push(parseCell(index, feature, missingEntries));
  for (const index of order) write.push(writeEntry(index, features[index]!, missingEntries));
  const body = `'use strict';
return function writeRow(cells, chunk, missingEntries, position) {
  let total = 0;
  ${parse.join('\n  ')}
  const length = 1 + (total < 128 ? 1 : total < 16384 ? 2 : vs(total)) + total;
  if (chunk.bytes.length - chunk.used < length + ${FRAME_ROOM}) chunk.reserve(length + ${FRAME_ROOM});
  const t = chunk.bytes;
  const view = chunk.view;
  const start = chunk.used + ${FRAME_HEADER_BYTES};
  t[start] = ${EXAMPLE_FEATURES_TAG};
  let p = start + 1;
  ${varint('total')}
  ${write.join('\n  ')}
  chunk.used = p + ${FRAME_TRAILER_BYTES};
  return new Encoded(t, start, length, true, position);
};`;
  let shared = generatedWriters.get(body);
  if (shared === undefined) {
    try {
      shared = compile(body);
    } catch {
      return undefined;
    }
    if (generatedWriters.size >= MAX_CACHED_WRITERS) generatedWriters.clear();
    generatedWriters.set(body, shared);
  }
  const writer = shared;
  return (cells, position) => writer(cells, chunk, missingEntries, position);
}

function compile(body: string): SharedRowWriter {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the body holds only numbers the spec's names became
  const factory = new Function(
    'Encoded',
    'vs',
    'wv',
    'wneg',
    'copy',
    'smallInt',
    'decimal',
    'utf8Size',
    'writeUtf8',
    'writeAscii',
    'Range',
    'copyRange',
    'Num',
    body,
  ) as (...helpers: unknown[]) => SharedRowWriter;
  return factory(
    EncodedExample,
    varintSize,
    writeVarint,
    writeNegative,
    copy,
    // Untrimmed: a cell with surrounding whitespace fails both, and the general encoder trims it.
    smallInteger,
    plainDecimal,
    utf8Size,
    writeUtf8,
    writeAscii,
    ByteRange,
    copyRange,
    NumberCell,
  );
}

/** `x`'s varint size as an expression: small values inline, the rest through `vs`. */
function size(x: string): string {
  return `(${x} < 128 ? 1 : ${x} < 16384 ? 2 : vs(${x}))`;
}

/** A statement writing `x` as a varint at `p` (and moving `p` past it): one byte inline, or `wv`. */
function varint(x: string): string {
  return `if (${x} < 128) t[p++] = ${x}; else p = wv(t, p, ${x});`;
}

/** The statements that check, convert and size cell `index` (mode `m`, value `v`, sizes `z`). */
function parseCell(index: number, feature: GeneratedFeature, missingEntries: Uint8Array[]): string {
  const m = `m${index}`;
  const v = `v${index}`;
  const c = `c${index}`;
  const z = `z${index}`;
  const p = feature.prefix.length;
  let missing: string;
  if (feature.missing === 'omit') missing = `${m} = 0;`;
  else if (feature.missing === undefined) missing = 'return undefined;';
  else {
    missingEntries[index] = feature.missing;
    missing = `${m} = 2; total += ${feature.missing.length};`;
  }
  const isMissing = `${c} === undefined || ${c} === null || ${c} === ''`;
  const text = feature.split ? 'false' : `typeof ${c} === 'string'`;
  const lines = [`const ${c} = cells[${index}];`, `let ${m} = 1, ${v} = 0, ${z} = 0;`];
  if (feature.kind === INT64) {
    lines.push(
      `if (typeof ${c} === 'number') { if (!Number.isSafeInteger(${c})) return undefined; ${v} = ${c}; }`,
      // A bigint (Parquet's INT64 columns) within ±(2^53 - 1) converts exactly; a larger one rounds to
      // at least 2^53, which is refused, and the general encoder writes it from the bigint.
      `else if (typeof ${c} === 'bigint') { ${v} = Number(${c}); if (!Number.isSafeInteger(${v})) return undefined; }`,
      `else if (${c} instanceof Num) { ${v} = ${c}.value; if (!Number.isSafeInteger(${v})) return undefined; }`,
      `else if (${isMissing}) { ${missing} }`,
      `else if (${text}) { const n = smallInt(${c}); if (n === undefined) return undefined; ${v} = n; }`,
      'else return undefined;',
      // z: the varint's size s. Feature: 1a (2+s) 0a s varint (4+s); entry: prefix, 4+s, Feature.
      `if (${m} === 1) { const s = ${v} < 0 ? 10 : ${size(v)}; ${z} = s; const e = ${p + 5} + s; total += ${size('e')} + 1 + e; }`,
    );
  } else if (feature.kind === FLOAT) {
    const entry = p + 1 + 8;
    lines.push(
      // A holder first (the CSV byte path's float cells), mode 3: its number is read where it is
      // written, never merged with the other cells' values, which would box it as a heap number.
      `if (${c} instanceof Num) ${m} = 3;`,
      `else if (typeof ${c} === 'number') ${v} = ${c};`,
      `else if (${isMissing}) { ${missing} }`,
      `else if (${text}) { ${v} = decimal(${c}); if (${v} !== ${v}) return undefined; }`,
      'else return undefined;',
      `if (${m} === 1 || ${m} === 3) total += ${1 + varintSize(entry) + entry};`,
    );
  } else {
    lines.push(
      `let b${index};`,
      // A range of the source's input (the CSV byte path's bytes cells): checked first, it is the common cell there.
      `if (${c} instanceof Range) { b${index} = ${c}; ${v} = ${c}.end - ${c}.start; }`,
      `else if (${isMissing}) { ${missing} }`,
      `else if (${text}) { b${index} = ${c}; ${v} = utf8Size(${c}); if (${v} < 0) return undefined; }`,
      `else if (${c} instanceof Uint8Array) { b${index} = ${c}; ${v} = ${c}.length; }`,
      'else return undefined;',
      // z: the Feature's size. BytesList: 0a n bytes; Feature: 0a list; entry: prefix, size, Feature.
      `if (${m} === 1) { const l = ${size(v)} + 1 + ${v}; const f = ${size('l')} + 1 + l; ${z} = f; const e = ${p} + ${size('f')} + f; total += ${size('e')} + 1 + e; }`,
    );
  }
  return lines.join('\n  ');
}

/** The statements that write feature `index`'s map entry at `p`. */
function writeEntry(index: number, feature: GeneratedFeature, missingEntries: Uint8Array[]): string {
  const m = `m${index}`;
  const v = `v${index}`;
  const z = `z${index}`;
  const prefix = feature.prefix;
  const p = prefix.length;
  const precomputed =
    missingEntries[index] === undefined
      ? ''
      : ` else if (${m} === 2) p = copy(missingEntries[${index}], t, p);`;
  let present: string;
  if (feature.kind === INT64) {
    present = [
      `const s = ${z}; const e = ${p + 5} + s;`,
      `t[p++] = ${MAP_ENTRY_TAG}; ${varint('e')}`,
      constantBytes(prefix, 'p'),
      `p += ${p}; t[p] = 4 + s; t[p + 1] = ${INT64_LIST_TAG}; t[p + 2] = 2 + s; t[p + 3] = ${LIST_VALUE_TAG}; t[p + 4] = s; p += 5;`,
      `const x = ${v}; if (x < 0) p = wneg(t, p, x); else { ${varint('x')} }`,
    ].join(' ');
  } else if (feature.kind === FLOAT) {
    const entry = p + 1 + 8;
    const head = new Uint8Array(1 + varintSize(entry) + p + 5);
    head[0] = MAP_ENTRY_TAG;
    let at = writeVarint(head, 1, entry);
    head.set(prefix, at);
    at += p;
    head.set([8, FLOAT_LIST_TAG, 6, LIST_VALUE_TAG, 4], at);
    present =
      `${constantBytes(head, 'p')} if (${m} === 3) view.setFloat32(p + ${head.length}, c${index}.value, true);` +
      ` else view.setFloat32(p + ${head.length}, ${v}, true); p += ${head.length + 4};`;
    return `if (${m} === 1 || ${m} === 3) { ${present} }${precomputed}`;
  } else {
    present = [
      `const f = ${z}; const n = ${v}; const b = b${index}; const l = ${size('n')} + 1 + n; const e = ${p} + ${size('f')} + f;`,
      `t[p++] = ${MAP_ENTRY_TAG}; ${varint('e')}`,
      `${constantBytes(prefix, 'p')} p += ${p}; ${varint('f')}`,
      `t[p++] = ${BYTES_LIST_TAG}; ${varint('l')}`,
      `t[p++] = ${LIST_VALUE_TAG}; ${varint('n')}`,
      `if (b instanceof Range) p = copyRange(b.source, b.start, b.end, t, p);`,
      `else if (typeof b !== 'string') p = copy(b, t, p);`,
      'else if (n === b.length) p = writeAscii(t, p, b);',
      'else p = writeUtf8(t, p, b);',
    ].join(' ');
  }
  return `if (${m} === 1) { ${present} }${precomputed}`;
}

/** Literal stores of `bytes` at `base` + 0, 1, …: four at a time as little-endian words. */
function constantBytes(bytes: Uint8Array, base: string): string {
  const stores: string[] = [];
  let index = 0;
  for (; index + 4 <= bytes.length; index += 4) {
    const word =
      (bytes[index]! | (bytes[index + 1]! << 8) | (bytes[index + 2]! << 16) | (bytes[index + 3]! << 24)) >>>
      0;
    stores.push(`view.setUint32(${base} + ${index}, ${word}, true);`);
  }
  for (; index < bytes.length; index++) stores.push(`t[${base} + ${index}] = ${bytes[index]};`);
  return stores.join(' ');
}

/** The UTF-8 length of a string, or -1 when it holds a lone surrogate (the general path decides). */
export function utf8Size(text: string): number {
  const length = text.length;
  let size = length;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    if (code < 0x800) size += 1;
    else if (code < 0xd800 || code > 0xdfff) size += 2;
    else {
      const next = text.charCodeAt(index + 1);
      if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return -1;
      size += 2; // four bytes for two UTF-16 units
      index++;
    }
  }
  return size;
}

/**
 * Writes a string of ASCII characters (one byte each) at `position`; returns the position after it.
 *
 * A function of its own rather than a loop in the generated writer: a loop there let V8 replace the
 * writer's code only at the loop (on-stack replacement), and in about one process in five the writer
 * then ran unoptimized from its next call on, several times slower.
 */
export function writeAscii(target: Uint8Array, position: number, text: string): number {
  const length = text.length;
  for (let index = 0; index < length; index++) target[position + index] = text.charCodeAt(index);
  return position + length;
}

/** Writes a well-formed string as UTF-8 at `position`; returns the position after it. */
export function writeUtf8(target: Uint8Array, position: number, text: string): number {
  const length = text.length;
  for (let index = 0; index < length; index++) {
    let code = text.charCodeAt(index);
    if (code < 0x80) {
      target[position++] = code;
    } else if (code < 0x800) {
      target[position++] = 0xc0 | (code >> 6);
      target[position++] = 0x80 | (code & 0x3f);
    } else if (code < 0xd800 || code > 0xdfff) {
      target[position++] = 0xe0 | (code >> 12);
      target[position++] = 0x80 | ((code >> 6) & 0x3f);
      target[position++] = 0x80 | (code & 0x3f);
    } else {
      code = 0x10000 + ((code - 0xd800) << 10) + (text.charCodeAt(++index) - 0xdc00);
      target[position++] = 0xf0 | (code >> 18);
      target[position++] = 0x80 | ((code >> 12) & 0x3f);
      target[position++] = 0x80 | ((code >> 6) & 0x3f);
      target[position++] = 0x80 | (code & 0x3f);
    }
  }
  return position;
}

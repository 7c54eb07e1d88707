/* eslint-disable @typescript-eslint/no-explicit-any -- rows are compared as plain objects */
// Compares our typed rows with hyparquet's own rows (default options: strings, Dates, GeoJSON,
// decimals as doubles), feature by feature, through independent conversions.
import { expect } from 'vitest';
import { wkbToGeojson } from 'hyparquet/src/wkb.js';
import type { ParquetFeature } from '../parquet-schema-types.js';

const decoder = new TextDecoder();
const MILLIS_DIVISOR: Record<string, bigint> = { ns: 1_000_000n, us: 1_000n, ms: 1n, s: 1n };

function lookup(row: Record<string, any>, feature: ParquetFeature): unknown {
  let value: any = row;
  for (const part of feature.name.split('/'))
    value = value === null || value === undefined ? value : value[part];
  return value;
}

/** `expect(actual, where).toBe(expected)`, paying for `expect` only when the values differ (millions of values here). */
function same(actual: unknown, expected: unknown, where: string): void {
  if (!Object.is(actual, expected)) expect(actual, where).toBe(expected);
}

function compareScalar(feature: ParquetFeature, ours: any, theirs: any, where: string): void {
  if (feature.kind === 'int64') {
    // 32-bit integers (and DATE days) come as numbers; TIME(MILLIS) and every 64-bit kind as bigints.
    const small = feature.parquetType === 'INT32' && !(feature.logicalType ?? '').startsWith('TIME');
    same(typeof ours, small ? 'number' : 'bigint', where);
    if (small) same(Number.isSafeInteger(ours), true, where);
    if (typeof theirs === 'boolean') same(ours, theirs ? 1n : 0n, where);
    else if (theirs instanceof Date) {
      if (feature.unit === 'days') same(Number(ours) * 86_400_000, theirs.getTime(), where);
      else if (feature.unit === 's') same(Number(ours) * 1000, theirs.getTime(), where);
      else same(Number(ours / MILLIS_DIVISOR[feature.unit ?? 'ms']!), theirs.getTime(), where);
    } else same(BigInt(ours), BigInt(theirs), where);
  } else if (feature.kind === 'float') {
    same(typeof ours, 'number', where);
    if (feature.logicalType?.startsWith('DECIMAL')) {
      if (!(Math.abs(ours - theirs) <= Math.abs(theirs) * 1e-12))
        expect(Math.abs(ours - theirs), where).toBeLessThanOrEqual(Math.abs(theirs) * 1e-12);
    } else if (!(Object.is(ours, theirs) || ours === theirs))
      expect(Object.is(ours, theirs) || ours === theirs, `${where}: ${ours} vs ${theirs}`).toBe(true);
  } else {
    if (!(ours instanceof Uint8Array)) expect(ours, where).toBeInstanceOf(Uint8Array);
    if (typeof theirs === 'string') {
      if (feature.logicalType === 'UUID') {
        const hex = Array.from(ours as Uint8Array, (byte) => byte.toString(16).padStart(2, '0')).join('');
        same(theirs.replaceAll('-', ''), hex, where);
      } else same(decoder.decode(ours), theirs, where);
    } else if (theirs instanceof Uint8Array) {
      if (ours.length !== theirs.length || ours.some((byte: number, at: number) => byte !== theirs[at]))
        expect(Array.from(ours), where).toEqual(Array.from(theirs));
    } else if (feature.logicalType === 'GEOMETRY' || feature.logicalType === 'GEOGRAPHY') {
      const view = new DataView(ours.buffer, ours.byteOffset, ours.byteLength);
      same(JSON.stringify(wkbToGeojson({ view, offset: 0 })), JSON.stringify(theirs), where);
    } else if (feature.logicalType === 'JSON')
      expect(JSON.parse(decoder.decode(ours)), where).toEqual(theirs);
    else throw new Error(`${where}: no comparison for ${String(theirs)}`);
  }
}

/** Asserts our row equals hyparquet's row on every feature. Returns how many values it compared. */
export function compareRow(
  features: readonly ParquetFeature[],
  ours: Record<string, any>,
  theirs: Record<string, any>,
  where: string,
): number {
  let compared = 0;
  for (const feature of features) {
    const expected = lookup(theirs, feature);
    const actual = ours[feature.name];
    const at = `${where} ${feature.name}`;
    if (expected === null || expected === undefined) {
      // hyparquet gives null for a repeated field with no values; that field cannot be null
      if (feature.list && !feature.nullable) {
        if (!Array.isArray(actual) || actual.length > 0) expect(actual, at).toEqual([]);
      } else if (actual !== null) expect(actual, at).toBeNull();
    } else if (feature.list) {
      const list = Array.from(expected as ArrayLike<unknown>);
      if (actual?.length !== list.length) expect(actual, at).toHaveLength(list.length);
      list.forEach((item, index) => compareScalar(feature, actual[index], item, `${at}[${index}]`));
    } else {
      compareScalar(feature, actual, expected, at);
    }
    compared++;
  }
  return compared;
}

import type { SchemaElement } from 'hyparquet';
import { decimalFromBytes, decimalToFloat, decimalToText } from './decimal-value.js';
import type { ResolvedReadOptions, TimestampUnit } from './parquet-read-options.js';

/** The feature kind a Parquet value becomes. */
export type ParquetFeatureKind = 'int64' | 'float' | 'bytes';

/** The unit of an int64 time value, as emitted. */
export type ParquetValueUnit = TimestampUnit | 'days';

/** What a primitive Parquet column becomes, and how its decoded values are converted. */
export interface LeafDescription {
  readonly kind: ParquetFeatureKind;
  /** Physical type: `INT64`, `BYTE_ARRAY` … */
  readonly parquetType: string;
  /** The annotation, readable: `STRING`, `DECIMAL(7,3)`, `TIMESTAMP(MICROS)` … */
  readonly logicalType: string | undefined;
  /** Unit of time values, after conversion. */
  readonly unit: ParquetValueUnit | undefined;
  /** Converts one non-null value as hyparquet decoded it (annotations stripped, see reader-metadata). */
  readonly convert: (value: unknown) => unknown;
}

const UNIT_OF: Record<string, TimestampUnit> = { MILLIS: 'ms', MICROS: 'us', NANOS: 'ns' };
const NANOS_PER: Record<TimestampUnit, bigint> = { s: 1_000_000_000n, ms: 1_000_000n, us: 1_000n, ns: 1n };
const encoder = new TextEncoder();

function toBigInt(value: unknown): bigint {
  return typeof value === 'bigint' ? value : BigInt(value as number);
}

/** A 32-bit integer as hyparquet decoded it (a number; a bigint only if a reader ever gives one). */
function toNumber(value: unknown): unknown {
  return typeof value === 'bigint' ? Number(value) : value;
}

function floorDivide(value: bigint, divisor: bigint): bigint {
  const quotient = value / divisor;
  return value % divisor !== 0n && value < 0n ? quotient - 1n : quotient;
}

function timestampConverter(from: TimestampUnit, to: TimestampUnit | undefined): (value: unknown) => unknown {
  if (to === undefined || to === from) return toBigInt;
  const fromNanos = NANOS_PER[from];
  const toNanos = NANOS_PER[to];
  if (fromNanos > toNanos) return (value) => toBigInt(value) * (fromNanos / toNanos);
  return (value) => floorDivide(toBigInt(value), toNanos / fromNanos);
}

function annotationOf(element: SchemaElement): string | undefined {
  const logical = element.logical_type;
  if (logical !== undefined) {
    switch (logical.type) {
      case 'DECIMAL':
        return `DECIMAL(${logical.precision},${logical.scale})`;
      case 'TIMESTAMP':
      case 'TIME':
        return `${logical.type}(${logical.unit})`;
      case 'INTEGER':
        return `INTEGER(${logical.bitWidth},${logical.isSigned ? 'signed' : 'unsigned'})`;
      default:
        return logical.type;
    }
  }
  if (element.converted_type === 'DECIMAL') return `DECIMAL(${element.precision ?? 0},${element.scale ?? 0})`;
  return element.converted_type;
}

function isDecimal(element: SchemaElement): boolean {
  return element.converted_type === 'DECIMAL' || element.logical_type?.type === 'DECIMAL';
}

function timestampUnitOf(element: SchemaElement): TimestampUnit | undefined {
  const logical = element.logical_type;
  if (logical?.type === 'TIMESTAMP') return UNIT_OF[logical.unit];
  if (element.converted_type === 'TIMESTAMP_MILLIS') return 'ms';
  if (element.converted_type === 'TIMESTAMP_MICROS') return 'us';
  return undefined;
}

function timeUnitOf(element: SchemaElement): TimestampUnit | undefined {
  const logical = element.logical_type;
  if (logical?.type === 'TIME') return UNIT_OF[logical.unit];
  if (element.converted_type === 'TIME_MILLIS') return 'ms';
  if (element.converted_type === 'TIME_MICROS') return 'us';
  return undefined;
}

/**
 * The feature kind and value conversion of a primitive column (the type mapping table of the
 * README). `element` is the file's own schema element, annotations intact.
 */
export function describeLeaf(element: SchemaElement, options: ResolvedReadOptions): LeafDescription {
  const parquetType = element.type ?? 'BYTE_ARRAY';
  const logicalType = annotationOf(element);
  const base = { parquetType, logicalType, unit: undefined };
  if (isDecimal(element)) {
    const scale =
      element.logical_type?.type === 'DECIMAL' ? element.logical_type.scale : (element.scale ?? 0);
    const unscaled = (value: unknown): bigint =>
      value instanceof Uint8Array ? decimalFromBytes(value) : toBigInt(value);
    return options.decimal === 'text'
      ? { ...base, kind: 'bytes', convert: (value) => encoder.encode(decimalToText(unscaled(value), scale)) }
      : { ...base, kind: 'float', convert: (value) => decimalToFloat(unscaled(value), scale) };
  }
  switch (parquetType) {
    case 'BOOLEAN':
      return { ...base, kind: 'int64', convert: (value) => (value === true ? 1n : 0n) };
    case 'INT32':
    case 'INT64': {
      const unit = timestampUnitOf(element);
      if (unit !== undefined) {
        return {
          ...base,
          kind: 'int64',
          unit: options.timestampUnit ?? unit,
          convert: timestampConverter(unit, options.timestampUnit),
        };
      }
      const isDate = element.converted_type === 'DATE' || element.logical_type?.type === 'DATE';
      const timeUnit = timeUnitOf(element);
      // 32-bit integers (INT_8/16/32, UINT_8/16/32, DATE days) are exact as numbers, which spares a
      // BigInt per cell and keeps buildExamples on its number path; int64 kinds and TIME stay bigint.
      const convert = parquetType === 'INT32' && timeUnit === undefined ? toNumber : toBigInt;
      return { ...base, kind: 'int64', unit: isDate ? 'days' : timeUnit, convert };
    }
    case 'INT96':
      return {
        ...base,
        kind: 'int64',
        unit: options.timestampUnit ?? 'ns',
        convert: timestampConverter('ns', options.timestampUnit),
      };
    case 'FLOAT':
    case 'DOUBLE':
      return { ...base, kind: 'float', convert: (value) => value };
    default:
      if (element.logical_type?.type === 'FLOAT16')
        return { ...base, kind: 'float', convert: (value) => value };
      return { ...base, kind: 'bytes', convert: (value) => value };
  }
}

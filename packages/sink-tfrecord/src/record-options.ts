import { TfpipeError } from '@tfpipe/core';
import { DEFAULT_MAX_RECORD_BYTES, MAX_RECORD_BYTES_LIMIT } from './record-unframer.js';

/** Checks `maxRecordBytes` (an integer in [0, 2^31 - 1]) and returns it or the default. */
export function checkMaxRecordBytes(value: number | undefined, stage: string): number {
  if (value === undefined) return DEFAULT_MAX_RECORD_BYTES;
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_RECORD_BYTES_LIMIT) {
    throw new TfpipeError(
      'INVALID_OPTION',
      `maxRecordBytes must be an integer from 0 to ${MAX_RECORD_BYTES_LIMIT}, got ${String(value)}`,
      { stage, fatal: true },
    );
  }
  return value;
}

/** Checks a `compression` option against the allowed values. */
export function checkCompression<T extends string, F extends T | undefined>(
  value: string | undefined,
  allowed: readonly T[],
  fallback: F,
  stage: string,
): T | F {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new TfpipeError(
      'INVALID_OPTION',
      `compression must be one of ${allowed.map((item) => `'${item}'`).join(', ')}, got ${JSON.stringify(value)}`,
      { stage, fatal: true },
    );
  }
  return value as T;
}

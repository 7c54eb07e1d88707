import { TfpipeError } from '@tfpipe/core';
import type { Position } from '@tfpipe/core';

const UNSUPPORTED = /unsupported|not supported|parquet unhandled/i;

/**
 * Turns whatever hyparquet (or a decompressor) threw into a TfpipeError at `position`:
 * `PARQUET_UNSUPPORTED` for a codec, encoding or type it does not implement, `PARQUET_FORMAT` for
 * everything else (corrupt pages, truncated data, bad lengths). TfpipeErrors pass through with the
 * position added.
 */
export function parquetError(error: unknown, detail: string, position: Position): TfpipeError {
  if (TfpipeError.is(error)) return error.withPosition(position);
  const reason = error instanceof Error ? error.message : String(error);
  const code = UNSUPPORTED.test(reason) ? 'PARQUET_UNSUPPORTED' : 'PARQUET_FORMAT';
  return new TfpipeError(code, detail, { stage: 'parquetSource', position, reason, cause: error });
}

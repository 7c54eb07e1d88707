/* eslint-disable @typescript-eslint/no-explicit-any -- rows are compared as plain objects, as in the tests */
import { collect } from '@tfpipe/core/testing';
import { parquetSource, type ParquetSourceOptions } from '../node/parquet-source.js';

/** Every row parquetSource reads with `options`. */
export function collectRows(options: ParquetSourceOptions): Promise<Record<string, any>[]> {
  return collect(parquetSource(options)) as Promise<Record<string, any>[]>;
}

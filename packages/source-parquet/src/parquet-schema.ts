import { TfpipeError } from '@tfpipe/core';
import type { AsyncBuffer } from 'hyparquet';
import { mapParquetSchema } from './map-parquet-schema.js';
import { checkParquetSchemaOptions } from './parquet-options-schema.js';
import { resolveReadOptions } from './parquet-read-options.js';
import type { ParquetReadOptions } from './parquet-read-options.js';
import type { ParquetSchema } from './parquet-schema-types.js';
import { parquetError } from './parquet-error.js';
import { readParquetFooter } from './read-parquet-footer.js';
import { bufferInput } from './web/parquet-source.js';

/** Options of `parquetSchema`: the mapping options of the reader (columns, decimal, separator …). */
export type ParquetSchemaOptions = Pick<
  ParquetReadOptions,
  'columns' | 'decimal' | 'timestampUnit' | 'separator' | 'nested'
> & {
  /**
   * The name errors give the file.
   * @default the File's name, else 'input.parquet'
   */
  readonly name?: string;
};

/**
 * The feature schema of a Parquet file (from its footer only, no data pages): every feature's name,
 * kind, list or scalar, nullability and Parquet type, plus the columns that have no feature form.
 * Fails with `PARQUET_FORMAT` for a file that is not Parquet and `PARQUET_COLUMN` for an unknown
 * column in `options.columns`.
 */
export async function parquetSchema(
  file: AsyncBuffer | Blob,
  options: ParquetSchemaOptions = {},
): Promise<ParquetSchema> {
  checkParquetSchemaOptions(options);
  const resolved = resolveReadOptions(options);
  const input = bufferInput(file, options.name);
  const { buffer } = await input.open();
  const metadata = await readParquetFooter(buffer, input.name);
  let schema: ParquetSchema;
  try {
    ({ schema } = mapParquetSchema(metadata, resolved));
  } catch (error) {
    // hyparquet's schema tree throws plain TypeErrors on a schema that claims more children than it has.
    throw parquetError(error, 'invalid schema in the footer', { file: input.name });
  }
  for (const column of resolved.columns ?? []) {
    if (!schema.columns.includes(column)) {
      throw new TfpipeError('PARQUET_COLUMN', `no column "${column}"`, {
        stage: 'parquetSource',
        fatal: true,
        position: { file: input.name, field: column },
      });
    }
  }
  return schema;
}

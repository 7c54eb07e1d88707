import type { AsyncBuffer } from 'hyparquet';
import { parquetSchema as schemaOfBuffer } from '../parquet-schema.js';
import type { ParquetSchemaOptions } from '../parquet-schema.js';
import type { ParquetSchema } from '../parquet-schema-types.js';
import { openFileAsyncBuffer } from './file-async-buffer.js';

/**
 * The feature schema of a Parquet file (footer only), from a path, a `Blob` or an `AsyncBuffer`.
 * See the browser-safe variant for what it holds.
 */
export async function parquetSchema(
  file: string | AsyncBuffer | Blob,
  options: ParquetSchemaOptions = {},
): Promise<ParquetSchema> {
  if (typeof file !== 'string') return schemaOfBuffer(file, options);
  const opened = await openFileAsyncBuffer(file);
  try {
    return await schemaOfBuffer(opened.buffer, { ...options, name: options.name ?? file });
  } finally {
    await opened.close();
  }
}

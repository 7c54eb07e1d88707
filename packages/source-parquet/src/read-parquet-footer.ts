import { TfpipeError } from '@tfpipe/core';
import type { AsyncBuffer, FileMetaData, SchemaElement } from 'hyparquet';
import { parquetMetadataAsync } from 'hyparquet';

const MAGIC = 'PAR1';
const ENCRYPTED_MAGIC = 'PARE';
const decoder = new TextDecoder('latin1');

async function magicAt(buffer: AsyncBuffer, offset: number): Promise<string> {
  return decoder.decode(new Uint8Array(await buffer.slice(offset, offset + 4)));
}

/**
 * Reads and parses the footer of a Parquet file, checking both magics first so that "not a Parquet
 * file" and "truncated" are told apart from a corrupt footer. Errors: `PARQUET_FORMAT` (too short,
 * bad magic, corrupt footer), `PARQUET_UNSUPPORTED` (encrypted footer).
 */
export async function readParquetFooter(buffer: AsyncBuffer, file: string): Promise<FileMetaData> {
  const fail = (detail: string, reason: string): TfpipeError =>
    new TfpipeError('PARQUET_FORMAT', detail, { stage: 'parquetSource', position: { file }, reason });
  if (buffer.byteLength < 12) {
    throw fail(
      'not a Parquet file',
      `${buffer.byteLength} bytes is shorter than the 12 bytes of magic and footer length`,
    );
  }
  const head = await magicAt(buffer, 0);
  const tail = await magicAt(buffer, buffer.byteLength - 4);
  if (head === ENCRYPTED_MAGIC || tail === ENCRYPTED_MAGIC) {
    throw new TfpipeError('PARQUET_UNSUPPORTED', 'encrypted Parquet file', {
      stage: 'parquetSource',
      position: { file },
    });
  }
  if (head !== MAGIC)
    throw fail('not a Parquet file', `bad magic ${JSON.stringify(head)} at byte 0, expected "PAR1"`);
  if (tail !== MAGIC) {
    throw fail(
      'truncated or corrupt Parquet file',
      `bad magic ${JSON.stringify(tail)} at the end, expected "PAR1"`,
    );
  }
  let metadata: FileMetaData;
  try {
    metadata = await parquetMetadataAsync(buffer, { parsers: RAW_PARSERS, geoparquet: false });
  } catch (error) {
    if (TfpipeError.is(error)) throw error.withPosition({ file });
    throw new TfpipeError('PARQUET_FORMAT', 'corrupt Parquet footer', {
      stage: 'parquetSource',
      position: { file },
      reason: error instanceof Error ? error.message : String(error),
      cause: error,
    });
  }
  checkSchemaDepth(metadata, file);
  return metadata;
}

/**
 * Deepest nesting of groups a schema may have. hyparquet and the feature mapping walk the schema
 * recursively: 12,000 levels overflowed the stack. Real schemas nest a few levels (Arrow caps its
 * own types at 64).
 */
const MAX_SCHEMA_DEPTH = 64;

/** Refuses (`PARQUET_SCHEMA`) a schema nested deeper than `MAX_SCHEMA_DEPTH`, walking it without recursion. */
function checkSchemaDepth(metadata: FileMetaData, file: string): void {
  // Children still to come at each open group, the root first, and the open groups' names.
  const remaining: number[] = [];
  const names: string[] = [];
  for (const element of metadata.schema) {
    while (remaining.length > 0 && remaining[remaining.length - 1] === 0) {
      remaining.pop();
      names.pop();
    }
    if (remaining.length > 0) remaining[remaining.length - 1]! -= 1;
    const children = element.num_children ?? 0;
    if (children <= 0) continue;
    remaining.push(children);
    names.push(element.name);
    // The root is no group of a column: a column's depth is the open groups below it.
    if (remaining.length - 1 > MAX_SCHEMA_DEPTH) {
      const column = names[1] ?? element.name;
      throw new TfpipeError('PARQUET_SCHEMA', 'schema nested too deep', {
        stage: 'parquetSource',
        position: { file, field: column },
        reason: `column "${column}" nests groups more than ${MAX_SCHEMA_DEPTH} levels deep (${names.slice(1, 4).join('.')}.…); tfpipe reads at most ${MAX_SCHEMA_DEPTH}`,
      });
    }
  }
}

const identity = <T>(value: T): T => value;

/** hyparquet parsers that keep the stored value: raw bytes, and time values as integers in their unit. */
export const RAW_PARSERS = {
  timestampFromMilliseconds: identity,
  timestampFromMicroseconds: identity,
  timestampFromNanoseconds: identity,
  dateFromDays: identity,
  stringFromBytes: identity,
  jsonFromBytes: identity,
  geometryFromBytes: identity,
  geographyFromBytes: identity,
  uuidFromBytes: identity,
};

const STRIPPED_CONVERTED = new Set(['DECIMAL', 'INTERVAL', 'BSON', 'MAP', 'MAP_KEY_VALUE']);
const STRIPPED_LOGICAL = new Set(['DECIMAL', 'BSON', 'MAP', 'VARIANT']);

/**
 * The footer as hyparquet should read it: DECIMAL, INTERVAL and BSON lose their annotation so their
 * unscaled integers and raw bytes come through exactly (hyparquet rounds decimals to doubles and
 * refuses INTERVAL and BSON); MAP becomes its repeated key/value group, so keys keep their type;
 * VARIANT becomes its two binary fields.
 */
export function readerMetadata(metadata: FileMetaData): FileMetaData {
  const schema = metadata.schema.map((element): SchemaElement => {
    const strip =
      (element.converted_type !== undefined && STRIPPED_CONVERTED.has(element.converted_type)) ||
      (element.logical_type !== undefined && STRIPPED_LOGICAL.has(element.logical_type.type));
    if (!strip) return element;
    const { converted_type: _converted, logical_type: _logical, ...rest } = element;
    return rest;
  });
  return { ...metadata, schema };
}

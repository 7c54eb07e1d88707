// Each entry's exports as users get them (imported by the package's name, from the built files):
// a name added to or removed from an entry is a decision made in review, here.
import { fileURLToPath } from 'node:url';
import * as parquet from '@tfpipe/source-parquet';
import * as web from '@tfpipe/source-parquet/web';
import { describe, expect, test } from 'vitest';
import { exportSurface } from '../../../test-support/export-surface.js';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));

describe('the entries of @tfpipe/source-parquet', () => {
  test('@tfpipe/source-parquet', async () => {
    expect(await exportSurface(packageDirectory, '.', parquet)).toMatchInlineSnapshot(`
      [
        "DecimalMode: type",
        "MissingPolicy: type",
        "NestedMode: type",
        "OpenedParquetInput: type",
        "ParquetChunk: type",
        "ParquetExampleSpecOptions: type",
        "ParquetFeature: type",
        "ParquetFeatureKind: type",
        "ParquetFeatureSpec: type",
        "ParquetInput: type",
        "ParquetReadOptions: type",
        "ParquetRow: type",
        "ParquetSchema: type",
        "ParquetSchemaOptions: type",
        "ParquetSourceOptions: type",
        "ParquetSourcePluginOptions: type",
        "ParquetUnsupportedColumn: type",
        "ParquetValueUnit: type",
        "TimestampUnit: type",
        "asyncBufferFromBlob: function",
        "createParquetSource: function",
        "parquetExampleSpec: function",
        "parquetSchema: function",
        "parquetSource: function",
        "parquetSourceOptionsSchema: object",
        "plugin: object",
      ]
    `);
  });

  test('@tfpipe/source-parquet/web', async () => {
    expect(await exportSurface(packageDirectory, './web', web)).toMatchInlineSnapshot(`
      [
        "DecimalMode: type",
        "MissingPolicy: type",
        "NestedMode: type",
        "OpenedParquetInput: type",
        "ParquetBufferSourceOptions: type",
        "ParquetChunk: type",
        "ParquetExampleSpecOptions: type",
        "ParquetFeature: type",
        "ParquetFeatureKind: type",
        "ParquetFeatureSpec: type",
        "ParquetInput: type",
        "ParquetReadOptions: type",
        "ParquetRow: type",
        "ParquetSchema: type",
        "ParquetSchemaOptions: type",
        "ParquetUnsupportedColumn: type",
        "ParquetValueUnit: type",
        "TimestampUnit: type",
        "asyncBufferFromBlob: function",
        "createParquetSource: function",
        "parquetExampleSpec: function",
        "parquetSchema: function",
        "parquetSource: function",
      ]
    `);
  });
});

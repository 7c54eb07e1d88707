import { buildExamples, TfpipeError } from '@tfpipe/core';
import { defineSourcePlugin, optionsSchema } from '@tfpipe/core/plugin';
import type { z } from 'zod';
import { PARQUET_OPTIONS_STAGE, parquetPluginSchema } from './parquet-options-schema.js';
import { parquetExampleSpec } from './parquet-example-spec.js';
import type { ParquetRow } from './create-parquet-source.js';
import { parquetSchema } from './node/parquet-schema.js';
import { parquetExampleSource, parquetSource } from './node/parquet-source.js';
import { ParquetRowEncoder } from './parquet-row-encoder.js';
import { resolveParquetInputs } from './node/resolve-parquet-inputs.js';

/** Drops keys whose value is `undefined` (zod's optional keys), for exactOptionalPropertyTypes. */
function defined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as never;
}

/** Rows (or their Examples) per batch when nothing reads the rows' fields: the stream cost is paid per batch. */
const ROW_BATCH = 1024;

/**
 * The options of the Parquet source plugin in a pipeline file: `parquetSource`'s read options but
 * buffers, callbacks and batches, plus `missing` (nulls without a pipeline spec). The same
 * definitions check `parquetSource` in code, so an option is refused with the same message either way.
 */
export const parquetSourceOptionsSchema = optionsSchema(PARQUET_OPTIONS_STAGE, parquetPluginSchema);

/** Checked options of the Parquet plugin. */
export type ParquetSourcePluginOptions = z.output<ReturnType<typeof parquetPluginSchema>>;

/**
 * `@tfpipe/source-parquet` as a config-file source: `{ "plugin": "@tfpipe/source-parquet",
 * "options": { "path": "data/", "columns": ["id", "label"] } }`. Without a `spec` in the pipeline,
 * every column becomes a feature by the footer-derived spec (`parquetExampleSpec`, nulls as
 * `missing` says). When no stage reads the rows' fields, the plugin emits the Examples themselves,
 * encoded from each row's cells, in batches of 1,024.
 */
export const plugin = defineSourcePlugin<ParquetSourcePluginOptions, ParquetRow>({
  kind: 'source',
  name: '@tfpipe/source-parquet',
  description: 'Parquet files, directories or globs (hyparquet, row group by row group)',
  options: parquetSourceOptionsSchema,
  output: 'rows',
  async create(options, context) {
    const { path, paths, missing, ...read } = options;
    const inputs = (paths ?? [path!]).map((input) => context.resolvePath(input));
    const [first] = await resolveParquetInputs(inputs);
    if (first === undefined) {
      throw new TfpipeError('INPUT_NOT_FOUND', 'no Parquet files', {
        stage: 'parquetSource',
        position: { file: inputs[0]! },
        fatal: true,
      });
    }
    const readOptions = defined(read);
    const schema = await parquetSchema(
      first,
      readOptions.columns === undefined ? {} : { columns: readOptions.columns },
    );
    const sourceOptions = { paths: inputs, ...readOptions, onError: context.onError };
    const spec = parquetExampleSpec(schema, missing === undefined ? {} : { missing });
    // Nothing reads the rows' fields (no spec, transform or split): the source encodes each row
    // from its cells, in batches, with no row object per row. `output` tells the runner these
    // chunks are batches of Examples; the Row type names what transforms see, which they see only
    // when fields are read.
    if (context.fieldsRead === false && ParquetRowEncoder.handles(spec)) {
      const examples = parquetExampleSource(
        { ...sourceOptions, batchSize: ROW_BATCH },
        new ParquetRowEncoder(spec),
      );
      return { readable: examples as unknown as ReadableStream<ParquetRow>, output: 'examples' };
    }
    // Rows travel in batches all the same when nothing reads their fields.
    const readable =
      context.fieldsRead === false
        ? (parquetSource({ ...sourceOptions, batchSize: ROW_BATCH }) as unknown as ReadableStream<ParquetRow>)
        : parquetSource(sourceOptions);
    return {
      readable,
      toExamples: () => buildExamples(spec as never, { onError: context.onError }),
    };
  },
});

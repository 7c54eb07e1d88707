import { z } from '@tfpipe/node-utils/options';

// Built on first use, not on import: `tfpipe convert` builds its config in code and checks only its
// plugins' options, so it never needs this schema.
function buildPipelineFileSchema() {
  const name = z.string({ error: 'expected a string' }).min(1, { error: 'expected a non-empty string' });
  const seed = z.int({ error: 'expected an integer' });
  const positiveInteger = z
    .int({ error: 'expected a positive integer' })
    .min(1, { error: 'expected a positive integer' });
  const kind = z.enum(['int64', 'float', 'bytes'], { error: 'expected "int64", "float" or "bytes"' });

  const pluginReference = z.strictObject({
    plugin: name,
    options: z.record(z.string(), z.unknown(), { error: 'expected an object of options' }).optional(),
  });

  const featureSpec = z.union(
    [
      kind,
      z.strictObject({
        kind,
        field: name.optional(),
        split: z.string({ error: 'expected a string' }).optional(),
        boolean: z.boolean({ error: 'expected true or false' }).optional(),
        missing: z
          .enum(['omit', 'empty', 'default', 'error'], {
            error: 'expected "omit", "empty", "default" or "error"',
          })
          .optional(),
        default: z.unknown().optional(),
      }),
    ],
    { error: 'expected "int64", "float", "bytes" or { "kind": …, "field": … }' },
  );

  const transform = z
    .strictObject({
      filter: name.optional(),
      take: z
        .int({ error: 'expected a whole number ≥ 0' })
        .min(0, { error: 'expected a whole number ≥ 0' })
        .optional(),
      sample: z
        .strictObject({
          count: z
            .int({ error: 'expected a whole number ≥ 0' })
            .min(0, { error: 'expected a whole number ≥ 0' })
            .optional(),
          fraction: z
            .number({ error: 'expected a number from 0 to 1' })
            .min(0)
            .max(1, { error: 'expected a number from 0 to 1' })
            .optional(),
          seed: seed.optional(),
        })
        .optional(),
    })
    .check((context) => {
      const given = ['filter', 'take', 'sample'].filter(
        (key) => (context.value as Record<string, unknown>)[key] !== undefined,
      );
      if (given.length !== 1) {
        context.issues.push({
          code: 'custom',
          input: context.value,
          message: 'expected exactly one of "filter", "take", "sample"',
        });
      }
      const sample = context.value.sample;
      if (sample !== undefined && (sample.count === undefined) === (sample.fraction === undefined)) {
        context.issues.push({
          code: 'custom',
          input: sample,
          path: ['sample'],
          message: 'expected exactly one of "count", "fraction"',
        });
      }
    });

  const split = z
    .strictObject({
      key: name.optional(),
      ratios: z
        .record(z.string(), z.number({ error: 'expected a number' }), {
          error: 'expected an object of split name → ratio',
        })
        .optional(),
      column: name.optional(),
      names: z.array(name, { error: 'expected a list of split names' }).optional(),
    })
    .check((context) => {
      const { key, ratios, column } = context.value;
      const byHash = key !== undefined || ratios !== undefined;
      if (byHash === (column !== undefined) || (byHash && (key === undefined || ratios === undefined))) {
        context.issues.push({
          code: 'custom',
          input: context.value,
          message: 'expected { "key": COLUMN, "ratios": { … } } or { "column": COLUMN }',
        });
      }
    });

  // Case spelled out, not the `i` flag: JSON Schema patterns (the generated pipeline.schema.json) have no flags.
  const size = z.union([positiveInteger, z.string().regex(/^\d+\s*[kKmMgG][iI]?[bB]?$/)], {
    error: 'expected a number of bytes or a size like "256M"',
  });

  return z.strictObject({
    $schema: z.string().optional().describe('The JSON Schema of this file, for editors; ignored by tfpipe.'),
    name: name
      .optional()
      .describe("The dataset's name, for dataset_info.json. Default: the output directory's name."),
    source: pluginReference.describe(
      'Where the rows come from: a plugin (csv, parquet, images, jsonl, or a package name) and its options.',
    ),
    spec: z
      .record(z.string(), featureSpec, { error: 'expected an object of feature name → kind or spec' })
      .optional()
      .describe('Feature name → kind or spec. Default: every column, with the kinds the source gives.'),
    transforms: z
      .array(transform, { error: 'expected a list of transforms' })
      .optional()
      .describe('Row transforms in order: each one of filter (an expression), take, sample.'),
    split: split
      .optional()
      .describe('Train/validation/test shard sets: by hash of a key column with ratios, or by a column.'),
    shuffle: z
      .strictObject({
        seed: seed.optional(),
        buffer: positiveInteger.optional(),
        full: z.boolean({ error: 'expected true or false' }).optional(),
        memory: size.optional(),
      })
      .optional()
      .describe(
        'Shuffle before writing: a buffer of records (default 10000), or full: true to spill runs to disk.',
      ),
    sink: pluginReference.describe(
      'Where the Examples go: a plugin (tfrecord, or a package name) and its options.',
    ),
    onError: z
      .enum(['fail', 'skip'], { error: 'expected "fail" or "skip"' })
      .optional()
      .describe('Record errors: stop at the first (fail, the default) or drop and count them (skip).'),
    readerSpec: z
      .array(z.enum(['tf', 'tfds', 'dali'], { error: 'expected "tf", "tfds" or "dali"' }))
      .optional()
      .describe(
        'Reader descriptions written beside a directory of shards. Default: ["tf"] (reader_spec.py).',
      ),
  });
}

let built: ReturnType<typeof buildPipelineFileSchema> | undefined;

/**
 * The shape of a pipeline file (plugin options are checked afterwards, each against its own
 * plugin's schema). Every object is strict: an unknown key is an error naming it.
 */
export function pipelineFileSchema(): ReturnType<typeof buildPipelineFileSchema> {
  return (built ??= buildPipelineFileSchema());
}

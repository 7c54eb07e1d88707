import { stat } from 'node:fs/promises';
import {
  buildExamples,
  mapRows,
  type Example,
  type PayloadType,
  type RecordErrorOptions,
  type SequenceExample,
} from '@tfpipe/core';
import { tfrecordSource } from '@tfpipe/sink-tfrecord';
import { csvToExamples, loadSchema } from '@tfpipe/source-csv';
import { imageExamples, imageSource, type ImageSourceOptions } from '@tfpipe/source-images';
import {
  parquetExampleSpec,
  parquetSchema,
  parquetSource,
  resolveParquetInputs,
} from '@tfpipe/source-parquet';
import { booleanFlag, choiceFlag, integerFlag, stringFlag } from '../flags.js';
import type { InputKind } from '../input-source.js';
import { jsonLinesSource } from '../jsonl-source.js';
import { TfpipeError } from '@tfpipe/core';

type Values = Readonly<Record<string, string | boolean | string[] | boolean[] | undefined>>;

/** The flags of each source, for `tfpipe convert`. */
export const SOURCE_FLAGS = {
  sequence: { type: 'boolean' },
  label: { type: 'string' },
  schema: { type: 'string' },
  'infer-rows': { type: 'string' },
  delimiter: { type: 'string' },
  resize: { type: 'string' },
  fit: { type: 'string' },
  format: { type: 'string' },
  quality: { type: 'string' },
  grayscale: { type: 'boolean' },
  coco: { type: 'string' },
  voc: { type: 'string' },
  columns: { type: 'string' },
} as const;

/** Help lines for {@link SOURCE_FLAGS}. */
export const SOURCE_FLAGS_HELP = `Input (IN is picked by its extension or, for a directory, by what it holds):
  .jsonl                Examples in protobuf's JSON form, one per line (--sequence: SequenceExamples)
  TFRecord files        re-shard, recompress or merge (payloads are copied, not re-encoded)
  .csv / .tsv           --label COLUMN (string labels become ids), --schema FILE, --infer-rows N|all,
                        --delimiter C
  .parquet / a folder   --columns a,b,c
  an image folder       class folders root/<class>/<file>; --coco FILE or --voc DIR for detection sets;
                        --resize WxH, --fit cover|contain|fill|inside, --format jpeg|png|webp,
                        --quality 1-100, --grayscale`;

/** A source of Examples (or of framed payloads, for TFRecord input) with what the sink should know. */
export interface ConvertInput {
  readonly readable: ReadableStream<Example | SequenceExample | Uint8Array>;
  readonly payloadType: PayloadType;
  /** Reportable streams of the run, in order, for summaries (the sources' reports). */
  readonly reporters: readonly object[];
}

function imageOptions(values: Values, input: string): ImageSourceOptions {
  const resizeText = stringFlag(values, 'resize');
  let resize: ImageSourceOptions['resize'];
  if (resizeText !== undefined) {
    const match = /^(\d+)x(\d+)$/.exec(resizeText);
    if (match === null) {
      throw new TfpipeError(
        'INVALID_OPTION',
        `--resize: expected WIDTHxHEIGHT like 224x224, got "${resizeText}"`,
        { stage: 'cli', fatal: true },
      );
    }
    const fit = choiceFlag(values, 'fit', ['cover', 'contain', 'fill', 'inside'] as const);
    resize = { width: Number(match[1]), height: Number(match[2]), ...(fit === undefined ? {} : { fit }) };
  }
  const format = choiceFlag(values, 'format', ['jpeg', 'png', 'webp'] as const);
  const quality = integerFlag(values, 'quality', 1);
  const coco = stringFlag(values, 'coco');
  const voc = stringFlag(values, 'voc');
  const base: ImageSourceOptions =
    coco !== undefined
      ? { coco, images: input }
      : voc !== undefined
        ? { voc, images: input }
        : { folder: input };
  return {
    ...base,
    ...(resize === undefined ? {} : { resize }),
    ...(format === undefined ? {} : { format }),
    ...(quality === undefined ? {} : { quality }),
    ...(booleanFlag(values, 'grayscale') ? { channels: 'grayscale' as const } : {}),
  };
}

/** Opens the source for IN. */
export async function openInput(
  kind: InputKind,
  input: string,
  values: Values,
  policy: RecordErrorOptions,
): Promise<ConvertInput> {
  switch (kind) {
    case 'jsonl': {
      const payloadType: PayloadType = booleanFlag(values, 'sequence') ? 'SequenceExample' : 'Example';
      const readable = jsonLinesSource({ path: input, payloadType, ...policy });
      return { readable, payloadType, reporters: [readable] };
    }
    case 'tfrecord': {
      const source = tfrecordSource({
        paths: (await stat(input)).isDirectory() ? `${input}/*` : input,
        ...policy,
      });
      const payloadType: PayloadType = booleanFlag(values, 'sequence') ? 'SequenceExample' : 'Example';
      const readable = source.pipeThrough(mapRows((record: { data: Uint8Array }) => record.data));
      return { readable, payloadType, reporters: [source] };
    }
    case 'csv': {
      const schemaFile = stringFlag(values, 'schema');
      const inferText = stringFlag(values, 'infer-rows');
      const label = stringFlag(values, 'label');
      const delimiter = stringFlag(values, 'delimiter');
      const readable = csvToExamples({
        path: input,
        ...policy,
        ...(schemaFile === undefined ? {} : { schema: await loadSchema(schemaFile) }),
        ...(inferText === undefined
          ? {}
          : { inferRows: inferText === 'all' ? 'all' : (integerFlag(values, 'infer-rows') ?? 1000) }),
        ...(label === undefined ? {} : { label }),
        ...(delimiter === undefined
          ? {}
          : { delimiter: delimiter === '\\t' || delimiter === 'tab' ? '\t' : delimiter }),
      });
      return { readable, payloadType: 'Example', reporters: [readable] };
    }
    case 'parquet': {
      const [first] = await resolveParquetInputs([input]);
      if (first === undefined) {
        throw new TfpipeError('INPUT_NOT_FOUND', 'no Parquet files', {
          stage: 'convert',
          position: { file: input },
          fatal: true,
        });
      }
      const columnsText = stringFlag(values, 'columns');
      const columns = columnsText?.split(',').map((column) => column.trim());
      const schema = await parquetSchema(first, columns === undefined ? {} : { columns });
      const source = parquetSource({ path: input, ...policy, ...(columns === undefined ? {} : { columns }) });
      const builder = buildExamples(parquetExampleSpec(schema) as never, policy);
      return { readable: source.pipeThrough(builder), payloadType: 'Example', reporters: [source, builder] };
    }
    case 'images': {
      const source = imageSource({ ...imageOptions(values, input), ...policy });
      return { readable: source.pipeThrough(imageExamples()), payloadType: 'Example', reporters: [source] };
    }
  }
}

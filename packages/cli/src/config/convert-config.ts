import { stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import type { TfrecordSinkOptions } from '@tfpipe/sink-tfrecord';
import { booleanFlag, byteSizeFlag, choiceFlag, integerFlag, stringFlag } from '../flags.js';
import type { InputKind } from '../input-source.js';
import type { PipelineConfig } from '@tfpipe/pipeline';

type Values = Readonly<Record<string, string | boolean | string[] | boolean[] | undefined>>;

/** A path as the config at `base` writes it (relative, with forward slashes). */
function pathFor(base: string, cwd: string, path: string): string {
  const shown = relative(base, resolve(cwd, path)).split('\\').join('/');
  return shown === '' ? '.' : shown;
}

/** The image source's options; `out` (the output file or directory) is left out of a folder scan. */
function imageOptions(values: Values, input: string, out: string | undefined): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  const coco = stringFlag(values, 'coco');
  const voc = stringFlag(values, 'voc');
  if (coco !== undefined) Object.assign(options, { coco, images: input });
  else if (voc !== undefined) Object.assign(options, { voc, images: input });
  // An output folder inside the image folder would be read as a class on the next run.
  else Object.assign(options, { folder: input }, out === undefined ? {} : { exclude: [out] });
  const maxFileBytes = byteSizeFlag(values, 'max-file-bytes');
  if (maxFileBytes !== undefined && maxFileBytes > MAX_IMAGE_FILE_BYTES) {
    throw new TfpipeError('INVALID_OPTION', `--max-file-bytes: at most ${MAX_IMAGE_FILE_BYTES} (2G - 1)`, {
      stage: 'cli',
      fatal: true,
    });
  }
  if (maxFileBytes !== undefined) options.maxFileBytes = maxFileBytes;
  const resizeText = stringFlag(values, 'resize');
  if (resizeText !== undefined) {
    const match = /^(\d+)x(\d+)$/.exec(resizeText);
    if (match === null) {
      throw new TfpipeError(
        'INVALID_OPTION',
        `--resize: expected WIDTHxHEIGHT like 224x224, got "${resizeText}"`,
        {
          stage: 'cli',
          fatal: true,
        },
      );
    }
    const fit = choiceFlag(values, 'fit', ['cover', 'contain', 'fill', 'inside'] as const);
    options.resize = {
      width: Number(match[1]),
      height: Number(match[2]),
      ...(fit === undefined ? {} : { fit }),
    };
  }
  const format = choiceFlag(values, 'format', ['jpeg', 'png', 'webp'] as const);
  if (format !== undefined) options.format = format;
  const quality = integerFlag(values, 'quality', 1);
  if (quality !== undefined) options.quality = quality;
  if (booleanFlag(values, 'grayscale')) options.channels = 'grayscale';
  return options;
}

/** The largest `maxFileBytes` the image source takes (one read fills at most 2 GiB - 1). */
const MAX_IMAGE_FILE_BYTES = 2 ** 31 - 1;

const PATH_KEYS = new Set(['path', 'folder', 'coco', 'voc', 'images', 'schemaFile', 'directory']);

function relativize(options: Record<string, unknown>, base: string, cwd: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (PATH_KEYS.has(key) && typeof value === 'string') out[key] = pathFor(base, cwd, value);
    else if ((key === 'paths' || key === 'exclude') && Array.isArray(value))
      out[key] = value.map((item: string) => pathFor(base, cwd, item));
    else out[key] = value;
  }
  return out;
}

/**
 * The pipeline `tfpipe convert IN OUT [flags]` runs, as a config whose paths are relative to `base`
 * (the working directory to run it now, the config file's directory for `--save-config`), so that
 * `tfpipe run` of the saved file does exactly what convert did.
 */
export async function convertConfig(
  kind: InputKind,
  input: string,
  sink: TfrecordSinkOptions,
  values: Values,
  cwd: string,
  base: string,
): Promise<PipelineConfig> {
  const sequence = booleanFlag(values, 'sequence') ? { payloadType: 'SequenceExample' } : {};
  let source: PipelineConfig['source'];
  switch (kind) {
    case 'jsonl':
      source = { plugin: '@tfpipe/cli/jsonl', options: { path: input, ...sequence } };
      break;
    case 'tfrecord': {
      const directory = (await stat(resolve(cwd, input))).isDirectory();
      const maxRecordBytes = byteSizeFlag(values, 'max-record-bytes');
      source = {
        plugin: '@tfpipe/sink-tfrecord',
        options: {
          paths: [directory ? `${input}/*` : input],
          ...sequence,
          ...(maxRecordBytes === undefined ? {} : { maxRecordBytes }),
        },
      };
      break;
    }
    case 'csv': {
      const inferText = stringFlag(values, 'infer-rows');
      const delimiter = stringFlag(values, 'delimiter');
      const options: Record<string, unknown> = { path: input };
      const schemaFile = stringFlag(values, 'schema');
      if (schemaFile !== undefined) options.schemaFile = schemaFile;
      if (inferText !== undefined)
        options.inferRows = inferText === 'all' ? 'all' : (integerFlag(values, 'infer-rows', 0) ?? 1000);
      const maxRecordLength = integerFlag(values, 'max-record-length');
      if (maxRecordLength !== undefined) options.maxRecordLength = maxRecordLength;
      const threads = choiceFlag(values, 'threads', ['1', '2', 'auto'] as const);
      if (threads !== undefined) options.threads = threads === 'auto' ? 'auto' : Number(threads);
      const label = stringFlag(values, 'label');
      if (label !== undefined) options.label = label;
      if (delimiter !== undefined)
        options.delimiter = delimiter === '\\t' || delimiter === 'tab' ? '\t' : delimiter;
      source = { plugin: '@tfpipe/source-csv', options };
      break;
    }
    case 'parquet': {
      const columns = stringFlag(values, 'columns')
        ?.split(',')
        .map((column) => column.trim());
      source = {
        plugin: '@tfpipe/source-parquet',
        options: { path: input, ...(columns === undefined ? {} : { columns }) },
      };
      break;
    }
    case 'images':
      source = {
        plugin: '@tfpipe/source-images',
        options: imageOptions(values, input, sink.directory ?? sink.path),
      };
      break;
  }
  const { overwrite: _overwrite, index, manifest, ...sinkRest } = sink;
  const sinkOptions: Record<string, unknown> = { ...sinkRest };
  if (index === true) sinkOptions.index = true;
  if (manifest === true) sinkOptions.manifest = true;
  const onError = choiceFlag(values, 'on-error', ['fail', 'skip'] as const);
  return {
    source: {
      plugin: source.plugin,
      options: relativize(source.options as Record<string, unknown>, base, cwd),
    },
    sink: { plugin: '@tfpipe/sink-tfrecord', options: relativize(sinkOptions, base, cwd) },
    ...(onError === undefined || onError === 'fail' ? {} : { onError }),
  };
}

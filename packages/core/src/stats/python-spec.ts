import type { DatasetStats } from './feature-stats.js';
import type { FeatureParseSpec } from './reader-spec.js';
import { readerSpec } from './reader-spec.js';

/** Options of the generated reader code. */
export interface PythonSpecOptions {
  /** Files to name in the example `TFRecordDataset` line. @default ['data.tfrecord'] */
  readonly files?: readonly string[];
  /** The files' compression, for `compression_type`. @default 'none' */
  readonly compression?: 'none' | 'gzip' | 'zlib';
}

const TF_DTYPE = { int64: 'tf.int64', float32: 'tf.float32', string: 'tf.string' } as const;
const DALI_DTYPE = { int64: 'tfrec.int64', float32: 'tfrec.float32', string: 'tfrec.string' } as const;
const DALI_DEFAULT = { int64: '-1', float32: '0.0', string: '""' } as const;

/** A Python string literal (JSON's escapes are valid Python escapes). */
function py(text: string): string {
  return JSON.stringify(text);
}

function shape(spec: FeatureParseSpec): string {
  return `[${spec.shape.join(', ')}]`;
}

function tfLine(spec: FeatureParseSpec): string {
  const dtype = TF_DTYPE[spec.dtype];
  const comment = spec.note === undefined ? '' : `  # ${spec.note}`;
  switch (spec.parser) {
    case 'fixed':
      return `    ${py(spec.name)}: tf.io.FixedLenFeature(${shape(spec)}, ${dtype}),${comment}`;
    case 'sequence':
      return `    ${py(spec.name)}: tf.io.FixedLenSequenceFeature(${shape(spec)}, ${dtype}${
        spec.allowMissing ? ', allow_missing=True' : ''
      }),${comment}`;
    case 'varlen':
      return `    ${py(spec.name)}: tf.io.VarLenFeature(${dtype}),${comment}`;
    case 'skip':
      return `    # ${py(spec.name)}: ${spec.note ?? 'no spec'}`;
  }
}

function datasetLine(options: PythonSpecOptions): string {
  const files = (options.files ?? ['data.tfrecord']).map(py).join(', ');
  const compression = options.compression ?? 'none';
  const type = compression === 'none' ? '' : `, compression_type=${py(compression.toUpperCase())}`;
  return `dataset = tf.data.TFRecordDataset([${files}]${type}).map(parse)`;
}

/**
 * Python code for TensorFlow: the `feature_description` dict for `tf.io.parse_single_example` (or the
 * context and sequence dicts for `tf.io.parse_single_sequence_example`), and a dataset line.
 */
export function tensorflowSpec(stats: DatasetStats, options: PythonSpecOptions = {}): string {
  const spec = readerSpec(stats);
  // `concat`, never `push(...lines)`: a spread passes each feature as an argument, and past ~100k
  // features that overflows the stack.
  const parse =
    spec.payloadType === 'Example'
      ? ['feature_description = {']
          .concat(spec.features.map(tfLine), '}', '')
          .concat(
            'def parse(serialized):',
            '    return tf.io.parse_single_example(serialized, feature_description)',
          )
      : ['context_features = {']
          .concat(spec.features.map(tfLine), '}', '', 'sequence_features = {')
          .concat(spec.featureLists.map(tfLine), '}', '')
          .concat(
            'def parse(serialized):',
            '    return tf.io.parse_single_sequence_example(',
            '        serialized, context_features=context_features, sequence_features=sequence_features)',
          );
  const lines = ['import tensorflow as tf', ''].concat(parse, '', datasetLine(options));
  return `${lines.join('\n')}\n`;
}

function daliLine(spec: FeatureParseSpec): string {
  const dtype = DALI_DTYPE[spec.dtype];
  const fallback = DALI_DEFAULT[spec.dtype];
  const comment = spec.note === undefined ? '' : `  # ${spec.note}`;
  if (spec.parser === 'skip') return `    # ${py(spec.name)}: ${spec.note ?? 'no spec'}`;
  if (spec.parser === 'fixed') {
    const daliShape = spec.shape.length === 0 ? (spec.dtype === 'string' ? '()' : '[1]') : shape(spec);
    return `    ${py(spec.name)}: tfrec.FixedLenFeature(${daliShape}, ${dtype}, ${fallback}),${comment}`;
  }
  return `    ${py(spec.name)}: tfrec.VarLenFeature(${dtype}, ${fallback}),${comment}`;
}

/**
 * Python code for NVIDIA DALI's TFRecord reader (`fn.readers.tfrecord`): the `features` dict. DALI reads
 * Examples only, and needs an index file per TFRecord file (`tfrecordSink({ index: true })`).
 */
export function daliSpec(stats: DatasetStats, options: PythonSpecOptions = {}): string {
  const spec = readerSpec(stats);
  const files = options.files ?? ['data.tfrecord'];
  if (spec.payloadType === 'SequenceExample') {
    return '# DALI reads tf.train.Example records only; these files hold SequenceExamples.\n';
  }
  return ['from nvidia.dali import fn', 'import nvidia.dali.tfrecord as tfrec', '', 'features = {']
    .concat(spec.features.map(daliLine), '}', '')
    .concat(
      `inputs = fn.readers.tfrecord(path=[${files.map(py).join(', ')}], index_path=[${files
        .map((file) => py(`${file}.idx`))
        .join(', ')}], features=features)`,
      '',
    )
    .join('\n');
}

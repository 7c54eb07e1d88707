import { describe, expect, it } from 'vitest';
import { bytes, emptyFeature, float, int64 } from '../model/feature.js';
import { example, sequenceExample } from '../model/example.js';
import { FeatureStatsCollector } from './feature-stats.js';
import { daliSpec, tensorflowSpec } from './python-spec.js';

function statsOf(records: Parameters<FeatureStatsCollector['add']>[0][]) {
  const collector = new FeatureStatsCollector();
  for (const record of records) collector.add(record);
  return collector.result();
}

describe('FeatureStatsCollector', () => {
  it('counts presence and list lengths per feature, sorted by name', () => {
    const stats = statsOf([
      example({ b: float(1, 2), a: int64(1) }),
      example({ a: int64(2), c: bytes('x', 'y', 'z') }),
      example({ a: emptyFeature() }),
    ]);
    expect(stats.records).toBe(3);
    expect(stats.features).toEqual([
      { name: 'a', kind: 'int64', present: 3, minLength: 0, maxLength: 1 },
      { name: 'b', kind: 'float', present: 1, minLength: 2, maxLength: 2 },
      { name: 'c', kind: 'bytes', present: 1, minLength: 3, maxLength: 3 },
    ]);
  });

  it('marks a feature whose records disagree on the kind as mixed', () => {
    const stats = statsOf([example({ a: int64(1) }), example({ a: float(1) })]);
    expect(stats.features[0]?.kind).toBe('mixed');
  });
});

describe('tensorflowSpec', () => {
  it('chooses FixedLenFeature for constant, always-present features and VarLenFeature otherwise', () => {
    const stats = statsOf([
      example({ age: int64(30), emb: float(1, 2, 3), name: bytes('a'), tags: bytes('x') }),
      example({ age: int64(31), emb: float(4, 5, 6), name: bytes('b'), tags: bytes('x', 'y') }),
      example({ age: int64(32), emb: float(7, 8, 9), tags: bytes() }),
    ]);
    expect(tensorflowSpec(stats, { files: ['out/train-00000-of-00001.tfrecord'], compression: 'gzip' })).toBe(
      [
        'import tensorflow as tf',
        '',
        'feature_description = {',
        '    "age": tf.io.FixedLenFeature([], tf.int64),',
        '    "emb": tf.io.FixedLenFeature([3], tf.float32),',
        '    "name": tf.io.VarLenFeature(tf.string),  # missing from 1 of 3 records',
        '    "tags": tf.io.VarLenFeature(tf.string),  # list length varies from 0 to 2',
        '}',
        '',
        'def parse(serialized):',
        '    return tf.io.parse_single_example(serialized, feature_description)',
        '',
        'dataset = tf.data.TFRecordDataset(["out/train-00000-of-00001.tfrecord"], compression_type="GZIP").map(parse)',
        '',
      ].join('\n'),
    );
  });

  it('writes context and sequence dicts for SequenceExamples', () => {
    const stats = statsOf([
      sequenceExample({ id: int64(1) }, { tokens: [int64(1), int64(2)], vec: [float(1, 2), float(3)] }),
      sequenceExample({ id: int64(2) }, { tokens: [int64(3)] }),
    ]);
    const code = tensorflowSpec(stats);
    expect(code).toContain('context_features = {\n    "id": tf.io.FixedLenFeature([], tf.int64),\n}');
    expect(code).toContain('"tokens": tf.io.FixedLenSequenceFeature([], tf.int64),');
    expect(code).toContain('"vec": tf.io.VarLenFeature(tf.float32),');
    expect(code).toContain('tf.io.parse_single_sequence_example(');
  });

  it('escapes feature names as Python string literals', () => {
    const code = tensorflowSpec(statsOf([example({ 'say "hi"\\': int64(1) })]));
    expect(code).toContain('"say \\"hi\\"\\\\": tf.io.FixedLenFeature([], tf.int64),');
  });
});

describe('daliSpec', () => {
  it('uses DALI shapes: () for scalar strings, [1] for scalar numbers', () => {
    const stats = statsOf([example({ 'image/encoded': bytes('jpeg'), 'image/class/label': int64(3) })]);
    const code = daliSpec(stats, { files: ['a.tfrecord'] });
    expect(code).toContain('"image/encoded": tfrec.FixedLenFeature((), tfrec.string, ""),');
    expect(code).toContain('"image/class/label": tfrec.FixedLenFeature([1], tfrec.int64, -1),');
    expect(code).toContain('index_path=["a.tfrecord.idx"]');
  });
});

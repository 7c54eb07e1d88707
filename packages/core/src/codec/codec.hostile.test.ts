// Hostile records through the codec and the stats: bounded in time and memory (each case well under a
// second or two), so they run in CI on 2 cores, in Node and in the edge runtime.
import { describe, expect, test } from 'vitest';
import { TfpipeError } from '../errors/tfpipe-error.js';
import type { Feature } from '../model/feature.js';
import { float, int64 } from '../model/feature.js';
import { example, sequenceExample, type Example } from '../model/example.js';
import { collect } from '../testing/collect.js';
import { fromArray } from '../testing/from-array.js';
import { parseExamples } from '../stages/parse-examples.js';
import { FeatureStatsCollector, type DatasetStats } from '../stats/feature-stats.js';
import { readerSpec } from '../stats/reader-spec.js';
import { daliSpec, tensorflowSpec } from '../stats/python-spec.js';
import { decodeExample, decodeSequenceExample, MIN_DECODED_BYTES } from './decode-example.js';
import { EncodedExample } from './encoded-example.js';
import { encodeExample, encodeSequenceExample } from './encode-example.js';
import { exampleToJson, exampleToJsonText, sequenceExampleToJsonText } from './example-to-json.js';

/** More features than a function call takes arguments (V8 overflows its stack near 120k). */
const WIDE = 130_000;

function wideFeatures(): Record<string, Feature> {
  const features = Object.create(null) as Record<string, Feature>;
  for (let index = 0; index < WIDE; index++) features[`f${String(index).padStart(6, '0')}`] = int64(index);
  return features;
}

/** A varint's bytes. */
function varint(value: number): number[] {
  const bytes: number[] = [];
  for (; value >= 0x80; value = Math.floor(value / 128)) bytes.push((value % 128) | 0x80);
  bytes.push(value);
  return bytes;
}

/**
 * Example bytes with one feature `x` whose list (field 1 bytes, 3 int64) holds `count` values of
 * `valueBytes` wire bytes each (for bytes, `0a 00`: an empty value), written without building them.
 */
function oneListExample(listField: 1 | 3, count: number): Uint8Array {
  const valueBytes = listField === 1 ? 2 : 1;
  const run = count * valueBytes;
  const list = listField === 1 ? run : 1 + varint(run).length + run;
  const feature = 1 + varint(list).length + list;
  const key = [0x0a, 1, 0x78];
  const entry = key.length + 1 + varint(feature).length + feature;
  const features = 1 + varint(entry).length + entry;
  const head = [
    0x0a,
    ...varint(features),
    0x0a,
    ...varint(entry),
    ...key,
    0x12,
    ...varint(feature),
    (listField << 3) | 2,
    ...varint(list),
    ...(listField === 3 ? [0x0a, ...varint(run)] : []),
  ];
  const bytes = new Uint8Array(head.length + run);
  bytes.set(head);
  if (listField === 1) for (let index = 0; index < count; index++) bytes[head.length + index * 2] = 0x0a;
  return bytes;
}

function errorOf(run: () => unknown): TfpipeError {
  try {
    run();
  } catch (error) {
    if (TfpipeError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a TfpipeError');
}

// Each case takes 1-5 s alone; beside every other package's tests on CI's 2 cores one took 32 s.
describe(
  '130k features in one record (no argument spreads of unbounded arrays)',
  { timeout: 120_000 },
  () => {
    const bytes = encodeExample(example(wideFeatures()));
    const decoded = decodeExample(bytes);

    test('decode and JSON text', () => {
      expect(Object.keys(decoded.features).length).toBe(WIDE);
      // Strings compare fast; vitest's deep equality on 130k-entry objects would dominate the test.
      expect(exampleToJsonText(decoded) === JSON.stringify(exampleToJson(decoded))).toBe(true);
    });

    test('stats (from decoded and from encoded Examples), reader spec, TensorFlow and DALI code', () => {
      const statsOf = (record: Example): DatasetStats => {
        const collector = new FeatureStatsCollector();
        collector.add(record);
        return collector.result();
      };
      const stats = statsOf(decoded);
      expect(stats.features.length).toBe(WIDE);
      expect(
        JSON.stringify(statsOf(new EncodedExample(bytes, 0, bytes.length))) === JSON.stringify(stats),
      ).toBe(true);
      expect(readerSpec(stats).features.filter((spec) => spec.parser === 'fixed').length).toBe(WIDE);
      expect(count(tensorflowSpec(stats), 'tf.io.FixedLenFeature(')).toBe(WIDE);
      expect(count(daliSpec(stats), 'tfrec.FixedLenFeature(')).toBe(WIDE);
    });

    test('TensorFlow code for SequenceExamples with 130k context features and 130k feature lists', () => {
      const lists = Object.create(null) as Record<string, Feature[]>;
      for (const name of Object.keys(decoded.features)) lists[name] = [float(1)];
      const collector = new FeatureStatsCollector();
      collector.add(sequenceExample(decoded.features, lists));
      const code = tensorflowSpec(collector.result());
      expect(count(code, 'tf.io.FixedLenFeature(')).toBe(WIDE);
      expect(count(code, 'tf.io.FixedLenSequenceFeature(')).toBe(WIDE);
    });

    test('SequenceExample JSON text with 130k feature lists', () => {
      const lists = Object.create(null) as Record<string, Feature[]>;
      for (const name of Object.keys(decoded.features)) lists[name] = [];
      const text = sequenceExampleToJsonText(
        decodeSequenceExample(encodeSequenceExample(sequenceExample({}, lists))),
      );
      expect(count(text, ':{}')).toBe(WIDE + 1); // and the empty context
    });
  },
);

/** Occurrences of `part` in `text`. */
function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe('decoded memory is bounded by maxDecodedBytes', { timeout: 120_000 }, () => {
  // 1M empty bytes values: a 2 MB record that decoded into ~200 MB of Uint8Arrays.
  const empties = oneListExample(1, 1_000_000);

  test('a record of a million empty bytes values is RECORD_TOO_LARGE at the value that crosses the default', () => {
    const error = errorOf(() => decodeExample(empties));
    expect(error.code).toBe('RECORD_TOO_LARGE');
    expect(error.fatal).toBe(false);
    // ~200 bytes per empty value: the budget of 128 MiB runs out after ~670k of the 1M values.
    const valueIndex = (error.position.byteOffset! - 12) / 2;
    expect(valueIndex).toBeGreaterThan(MIN_DECODED_BYTES / 220);
    expect(valueIndex).toBeLessThan(MIN_DECODED_BYTES / 180);
    expect(error.message).toMatch(
      /^Example too large to decode at byte \d+: its values would take more than 134217728 bytes/,
    );
  });

  test('1-byte int64 values are counted too (32 bytes each)', () => {
    const ints = oneListExample(3, 100_000);
    expect(decodeExample(ints, { maxDecodedBytes: 3_300_000 }).features.x?.value).toHaveLength(100_000);
    expect(errorOf(() => decodeExample(ints, { maxDecodedBytes: 3_000_000 })).code).toBe('RECORD_TOO_LARGE');
  });

  test('an explicit maxDecodedBytes, Infinity to turn it off, and a bad one', () => {
    const small = oneListExample(1, 100_000);
    expect(decodeExample(small).features.x?.value).toHaveLength(100_000);
    expect(errorOf(() => decodeExample(small, { maxDecodedBytes: 1_000_000 })).code).toBe('RECORD_TOO_LARGE');
    expect(decodeExample(small, { maxDecodedBytes: Infinity }).features.x?.value).toHaveLength(100_000);
    const bad = errorOf(() => decodeExample(small, { maxDecodedBytes: -1 }));
    expect([bad.code, bad.fatal]).toEqual(['INVALID_OPTION', true]);
  });

  test('large values and floats cost their size: a 20 MB value and 2M floats decode under the default', () => {
    const big = encodeExample(example({ blob: { kind: 'bytes', value: [new Uint8Array(20 << 20)] } }));
    expect((decodeExample(big).features.blob?.value[0] as Uint8Array).length).toBe(20 << 20);
    const floats = encodeExample(example({ f: { kind: 'float', value: new Float32Array(2_000_000) } }));
    expect(decodeExample(floats).features.f?.value).toHaveLength(2_000_000);
  });

  test('parseExamples: the record is RECORD_TOO_LARGE with its index, and skippable', async () => {
    const good = encodeExample(example({ a: int64(1) }));
    const skipped: TfpipeError[] = [];
    const parsed = await collect(
      fromArray([good, empties, good]).pipeThrough(
        parseExamples({ onError: 'skip', onSkip: (error) => skipped.push(error) }),
      ),
    );
    expect(parsed).toHaveLength(2);
    expect(skipped.map((error) => [error.code, error.position.recordIndex])).toEqual([
      ['RECORD_TOO_LARGE', 1],
    ]);
    expect(() => parseExamples({ maxDecodedBytes: 1.5 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION' }) as Error,
    );
  });
});

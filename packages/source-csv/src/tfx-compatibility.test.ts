import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import {
  collect,
  decodeExampleBytes,
  readFrames,
  withTempDir,
  writeTemp,
} from './__fixtures__/test-support.js';
import type { DecodedFeature } from './__fixtures__/test-support.js';
import { csvToExamples } from './csv-features.js';
import { tfrecordCorpusFile } from '../../../test-support/corpus.js';

// What TFX's CsvExampleGen wrote for the Chicago taxi eval split (see test-support/corpus/NOTICE.md).
const corpus = tfrecordCorpusFile('tfx_taxi_csvgen_eval_00000.tfrecord.gz');
const tfx = readFrames(gunzipSync(readFileSync(corpus))).map((frame) => decodeExampleBytes(frame));
const columns = Object.keys(tfx[0]!).sort();

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** The CSV TFX must have read: each value printed back as text, kindless features as empty cells. */
function cellText(feature: DecodedFeature | undefined): string {
  if (feature === undefined || feature.kind === 'none') return '';
  const value = feature.value[0]!;
  if (feature.kind === 'bytes')
    return `"${new TextDecoder().decode(value as Uint8Array).replaceAll('"', '""')}"`;
  return String(value);
}

describe('TFX CsvExampleGen compatibility (Chicago taxi)', () => {
  test('the corpus file holds 424 Examples of 18 columns with int64, float, bytes and kindless features', () => {
    expect(tfx).toHaveLength(424);
    expect(columns).toHaveLength(18);
    const kinds = new Set(tfx.flatMap((example) => Object.values(example).map((feature) => feature.kind)));
    expect([...kinds].sort()).toEqual(['bytes', 'float', 'int64', 'none']);
  });

  test("inferred kinds match TFX's for every feature of every record, and missing: 'kindless' reproduces its empty cells", async () => {
    await withTempDir(async (directory) => {
      const csv = [
        columns.join(','),
        ...tfx.map((example) => columns.map((name) => cellText(example[name])).join(',')),
      ];
      const file = await writeTemp(directory, 'taxi.csv', `${csv.join('\n')}\n`);
      const ours = await collect(csvToExamples({ path: file, missing: 'kindless' }));
      expect(ours).toHaveLength(tfx.length);
      ours.forEach((example, index) => {
        const expected = tfx[index]!;
        expect(Object.keys(example.features).sort()).toEqual(columns);
        for (const name of columns) {
          const mine = example.features[name]!;
          const theirs = expected[name]!;
          expect({ name, kind: mine.kind }).toEqual({ name, kind: theirs.kind });
          if (mine.kind === 'float') expect([...mine.value].map(Math.fround)).toEqual(theirs.value);
          else if (mine.kind === 'bytes')
            expect(mine.value.map(text)).toEqual((theirs.value as Uint8Array[]).map(text));
          else expect(mine.value).toEqual(theirs.value);
        }
      });
    });
  });

  test("by default (missing: 'omit') an empty cell is a missing feature where TFX writes a kindless one", async () => {
    await withTempDir(async (directory) => {
      const csv = [
        columns.join(','),
        ...tfx.map((example) => columns.map((name) => cellText(example[name])).join(',')),
      ];
      const file = await writeTemp(directory, 'taxi.csv', `${csv.join('\n')}\n`);
      const ours = await collect(csvToExamples({ path: file }));
      ours.forEach((example, index) => {
        const kindless = Object.entries(tfx[index]!)
          .filter(([, feature]) => feature.kind === 'none')
          .map(([name]) => name);
        for (const name of kindless) expect(example.features[name]).toBeUndefined();
        expect(Object.keys(example.features)).toHaveLength(columns.length - kindless.length);
      });
    });
  });
});

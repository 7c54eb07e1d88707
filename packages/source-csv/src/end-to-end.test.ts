import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  collect,
  decodeExampleBytes,
  readFrames,
  withTempDir,
  writeTemp,
} from './__fixtures__/test-support.js';
import { csvToExamples } from './csv-features.js';

import { decodeExample } from '@tfpipe/core';
import { tfrecordSink, tfrecordSource } from '@tfpipe/sink-tfrecord';

const CSV = [
  'id,price,name,tags,note',
  '9007199254740993,1.5,"Zürich, CH","a|b",',
  '-9223372036854775808,-2.5e-3,東京 😀,c,"multi\nline"',
  '3,NaN,"say ""hi""",,x',
].join('\r\n');

describe('CSV → TFRecord → read back', () => {
  test('every value survives: exact int64, float32, UTF-8 bytes, lists, missing cells', async () => {
    await withTempDir(async (directory) => {
      const input = await writeTemp(directory, 'in.csv', CSV);
      const output = path.join(directory, 'out.tfrecord');
      await csvToExamples({ path: input, schema: { tags: { kind: 'bytes', split: '|' } } }).pipeTo(
        tfrecordSink({ path: output }),
      );
      const examples = readFrames(new Uint8Array(await readFile(output))).map((frame) =>
        decodeExampleBytes(frame),
      );
      const text = (value: unknown): string => new TextDecoder().decode(value as Uint8Array);
      expect(examples).toHaveLength(3);
      expect(examples.map((example) => example.id!.value)).toEqual([
        [9007199254740993n],
        [-9223372036854775808n],
        [3n],
      ]);
      expect(examples.map((example) => example.price!.value)).toEqual([
        [1.5],
        [Math.fround(-2.5e-3)],
        [Number.NaN],
      ]);
      expect(examples.map((example) => example.name!.value.map(text))).toEqual([
        ['Zürich, CH'],
        ['東京 😀'],
        ['say "hi"'],
      ]);
      expect(examples.map((example) => example.tags?.value.map(text))).toEqual([
        ['a', 'b'],
        ['c'],
        undefined,
      ]);
      expect(examples.map((example) => example.note?.value.map(text))).toEqual([
        undefined,
        ['multi\nline'],
        ['x'],
      ]);
      // And through our own reader and core's decoder: the same values.
      const records = await collect(tfrecordSource({ paths: output }));
      const decoded = records.map((record) => decodeExample(record.data));
      expect(decoded.map((example) => example.features.id!.value)).toEqual([
        [9007199254740993n],
        [-9223372036854775808n],
        [3n],
      ]);
      expect(decoded.map((example) => (example.features.name!.value as Uint8Array[]).map(text))).toEqual([
        ['Zürich, CH'],
        ['東京 😀'],
        ['say "hi"'],
      ]);
    });
  });
});

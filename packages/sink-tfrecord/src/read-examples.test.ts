import { join } from 'node:path';
import {
  TfpipeError,
  decodeExample,
  decodeSequenceExample,
  encodeExample,
  encodeSequenceExample,
  positionOf,
  type Example,
  type SequenceExample,
} from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { CORPUS, collect, corpusDir, tempDir, writeAll } from './__fixtures__/helpers.js';
import { readManifest } from './manifest.js';
import { readExamples } from './read-examples.js';
import { tfrecordSink } from './tfrecord-sink.js';
import { tfrecordSource } from './tfrecord-source.js';

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe("the corpus through core's codec and our sink", () => {
  for (const { file } of CORPUS) {
    const sequence = file.includes('sequence');
    it(`decodes ${file}, re-encodes it straight into the sink's buffer, and reads back the same content`, async () => {
      const path = join(corpusDir, file);
      const records = await collect(tfrecordSource({ paths: path }));
      const decoded = records.map((record) =>
        sequence ? decodeSequenceExample(record.data) : decodeExample(record.data),
      );
      const directory = await tempDir();
      const sink = tfrecordSink({
        directory,
        prefix: 'copy',
        maxRecords: 5000,
        compression: 'gzip',
        manifest: true,
      });
      await writeAll<Example | SequenceExample>(sink, decoded);
      const manifest = await readManifest(directory);
      expect(manifest?.payloadType).toBe(sequence ? 'SequenceExample' : 'Example');
      expect(manifest?.records).toBe(records.length);
      const again = await all(readExamples(join(directory, 'copy-*'), { payloadType: 'auto' }));
      // Same content, compared as canonical bytes (sorted keys): toEqual walks typed arrays one element
      // at a time, which takes seconds on the 2.4 MB of JPEGs in the raccoon file.
      expect(again).toHaveLength(decoded.length);
      const encode = (value: Example | SequenceExample): Buffer =>
        Buffer.from(
          sequence ? encodeSequenceExample(value as SequenceExample) : encodeExample(value as Example),
        );
      const differing = again.findIndex((value, index) => !encode(value).equals(encode(decoded[index]!)));
      if (differing >= 0) expect(again[differing]).toEqual(decoded[differing]);
      expect(differing).toBe(-1);
    });
  }

  it('records feature kinds, presence and list lengths of the taxi file (with kind-less features) in the manifest', async () => {
    const directory = await tempDir();
    const path = join(directory, 'taxi.tfrecord');
    const records = await collect(
      tfrecordSource({ paths: join(corpusDir, 'tfx_taxi_csvgen_eval_00000.tfrecord.gz') }),
    );
    await writeAll(
      tfrecordSink({ path, manifest: true }),
      records.map((record) => record.data),
    );
    const manifest = (await readManifest(path))!;
    expect(manifest.records).toBe(424);
    const features = new Map(manifest.features.map((feature) => [feature.name, feature]));
    expect(features.size).toBeGreaterThan(5);
    for (const feature of features.values()) {
      expect(feature.present).toBe(424);
      expect(['bytes', 'float', 'int64', 'none']).toContain(feature.kind);
    }
    // 715 Features have no kind set in this file: those features have a shortest list of 0.
    expect([...features.values()].some((feature) => feature.minLength === 0)).toBe(true);
  });

  it('refuses to decode SequenceExamples as Examples when the manifest says so, and gives positions', async () => {
    const directory = await tempDir();
    const records = await collect(
      tfrecordSource({ paths: join(corpusDir, 'tfx_external_tfrecord_sequence.tfrecord.gz') }),
    );
    await writeAll(
      tfrecordSink({ directory, prefix: 's', manifest: true, payloadType: 'SequenceExample' }),
      records.slice(0, 20).map((record) => record.data),
    );
    const error = await all(readExamples(join(directory, 's-*'))).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(TfpipeError.is(error) && error.code).toBe('INVALID_OPTION');
    const sequences = await all(readExamples(join(directory, 's-*'), { payloadType: 'SequenceExample' }));
    expect(sequences.length).toBe(20);
    expect(positionOf(sequences[4])).toMatchObject({
      recordIndex: 4,
      file: join(directory, 's-00000-of-00001.tfrecord'),
    });
  });
});

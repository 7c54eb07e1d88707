// The vendored corpus (TFRecord files written by TensorFlow, TFX and others) read by tfrecordDataset:
// the same records, positions and reports as sink-tfrecord's tfrecordSource.
import { readdir } from 'node:fs/promises';
import { reportOf } from '@tfpipe/core';
import { tfrecordSource } from '@tfpipe/sink-tfrecord';
import { crc32c } from '@tfpipe/sink-tfrecord/web';
import type { TfRecord } from '@tfpipe/sink-tfrecord';
import { describe, expect, it } from 'vitest';
import { TFRECORD_CORPUS, tfrecordCorpusFile } from '../../../../test-support/corpus.js';
import { tfrecordDataset } from '../node/tfrecord-dataset-node.js';
import { fixedLen } from '../spec/feature-spec.js';

// The payload by its length and CRC-32C: comparing megabytes element by element takes the test minutes.
const summary = (record: TfRecord): unknown => [
  record.file,
  record.recordIndex,
  record.byteOffset,
  record.data.length,
  crc32c(record.data),
];

describe('tfrecordDataset over the corpus', () => {
  it('reads every corpus file as tfrecordSource does', async () => {
    const names = (await readdir(TFRECORD_CORPUS)).filter((name) =>
      /\.(tfrecords?|record)(\.gz)?$/.test(name),
    );
    expect(names.length).toBeGreaterThanOrEqual(5);
    for (const name of names) {
      const path = tfrecordCorpusFile(name);
      const expected: unknown[] = [];
      const source = tfrecordSource({ paths: path });
      for await (const record of source) expected.push(summary(record));
      const dataset = tfrecordDataset(path);
      const actual: unknown[] = [];
      for await (const record of dataset) actual.push(summary(record));
      expect(actual, name).toEqual(expected);
      expect(dataset.report().records, name).toBe(reportOf(source)!.records);
    }
  });

  it('parses the TFX penguin file (gzip) in batches', async () => {
    const spec = { species: fixedLen([], 'int64'), body_mass_g: fixedLen([], 'float32') };
    let rows = 0;
    for await (const batch of tfrecordDataset(tfrecordCorpusFile('tfx_penguin_train.tfrecord.gz')).parse(
      spec,
      {
        batchSize: 64,
      },
    ))
      rows += batch.species.shape[0]!;
    expect(rows).toBeGreaterThan(0);
  });
});

// Test-only reading of the raccoon detection set, a TFRecord file written by the TF Object
// Detection tooling: framing (u64 length, u32 masked CRC, data, u32 masked CRC; CRCs are the sink
// package's tests), payloads decoded with core's decodeExample.
import { readFile } from 'node:fs/promises';
import { decodeExample } from '@tfpipe/core';
import type { Feature } from '@tfpipe/core';
import { tfrecordCorpusFile } from '../../../../test-support/corpus.js';

/** `test-support/corpus/tfrecord/raccoon_test_jpeg.record` (see its NOTICE.md). */
export const RACCOON_RECORD = tfrecordCorpusFile('raccoon_test_jpeg.record');

/** The payloads of every record of an uncompressed TFRecord file. */
export function framedRecords(file: Uint8Array): Uint8Array[] {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const records: Uint8Array[] = [];
  let offset = 0;
  while (offset < file.length) {
    if (offset + 12 > file.length) throw new Error(`truncated header at ${offset}`);
    const length = Number(view.getBigUint64(offset, true));
    const start = offset + 12;
    if (start + length + 4 > file.length) throw new Error(`truncated record at ${offset}`);
    records.push(file.subarray(start, start + length));
    offset = start + length + 4;
  }
  return records;
}

/** The features of each of the 40 raccoon Examples. */
export async function raccoonExamples(): Promise<Record<string, Feature>[]> {
  const file = new Uint8Array(await readFile(RACCOON_RECORD));
  return framedRecords(file).map((data) => decodeExample(data).features);
}

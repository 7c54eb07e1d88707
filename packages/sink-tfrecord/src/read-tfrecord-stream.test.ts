import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { reportOf } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { collect, corpusDir, framedFile, hex, randomPayloads, streamOf } from './__fixtures__/helpers.js';
import { detectCompression } from './detect-compression.js';
import { frameRecords } from './frame-records.js';
import { readTfrecordStream } from './read-tfrecord-stream.js';

describe('readTfrecordStream (web-standard)', () => {
  it('reads a gzip file TFX wrote from a Blob stream, detecting the compression', async () => {
    const bytes = await readFile(join(corpusDir, 'tfx_penguin_train.tfrecord.gz'));
    const stream = readTfrecordStream(new Blob([bytes]).stream(), { file: 'penguin' });
    expect((await collect(stream)).length).toBe(234);
    expect(reportOf(stream)).toMatchObject({ records: 234, skipped: 0 });
  });

  for (const format of ['gzip', 'deflate'] as const) {
    it(`reads back frameRecords() piped through CompressionStream('${format}')`, async () => {
      const payloads = randomPayloads(300, 200, 12);
      const compressed = streamOf(payloads)
        .pipeThrough(frameRecords())
        .pipeThrough(
          new CompressionStream(format) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
        );
      const records = await collect(readTfrecordStream(compressed));
      expect(records.map((record) => hex(record.data))).toEqual(payloads.map(hex));
    });
  }
});

describe('detectCompression', () => {
  it('tells gzip, zlib and raw frames apart from the first bytes', () => {
    expect(detectCompression(Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0, 0))).toBe('gzip');
    expect(detectCompression(Uint8Array.of(0x78, 0x9c, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10))).toBe('zlib');
    expect(detectCompression(Uint8Array.of(0x78, 0xda, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10))).toBe('zlib');
    expect(detectCompression(framedFile([new Uint8Array(376)]))).toBe('none');
    expect(detectCompression(framedFile([new Uint8Array(5)]))).toBe('none');
  });

  it('asks for more bytes while it cannot decide, and decides with what there is at the end', () => {
    expect(detectCompression(Uint8Array.of(0x78))).toBeUndefined();
    expect(detectCompression(Uint8Array.of(0x78, 0x01, 0, 0))).toBeUndefined();
    expect(detectCompression(Uint8Array.of(0x78, 0x01, 0, 0), true)).toBe('zlib');
    expect(detectCompression(new Uint8Array(0), true)).toBe('none');
    expect(detectCompression(Uint8Array.of(0x05))).toBe('none');
  });
});

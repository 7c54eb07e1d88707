import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { buildExamples, encodeExample } from '@tfpipe/core';
import { collect as collectStream, fromArray } from '@tfpipe/core/testing';
import { describe, expect, it } from 'vitest';
import { framedFile, random, tempDir, writeAll } from './__fixtures__/helpers.js';
import { DIRECT_PAYLOAD_BYTES } from './shard-file.js';
import { tfrecordSink } from './tfrecord-sink.js';

/** Payloads around the direct-write threshold, mixed with small ones. */
function payloads(): Uint8Array[] {
  const next = random(11);
  return [100, DIRECT_PAYLOAD_BYTES + 5, 7, DIRECT_PAYLOAD_BYTES - 16, DIRECT_PAYLOAD_BYTES * 2, 0, 3].map(
    (length) => Uint8Array.from({ length }, () => Math.floor(next() * 256)),
  );
}

describe('large payloads written from where they are', () => {
  it('frames them exactly like the JS framing of the helpers, in order with the buffered ones', async () => {
    const directory = await tempDir();
    const records = payloads();
    const path = join(directory, 'direct.tfrecord');
    await writeAll(tfrecordSink({ path, bufferBytes: 65536, index: true }), records);
    const written = new Uint8Array(await readFile(path));
    expect(Buffer.compare(written, framedFile(records))).toBe(0);
    // The index names each frame's offset and size, the direct ones included.
    let offset = 0;
    const lines = records.map((record) => {
      const line = `${offset} ${record.length + 16}`;
      offset += record.length + 16;
      return line;
    });
    expect((await readFile(`${path}.idx`, 'utf8')).trim().split('\n')).toEqual(lines);
  });

  it('compresses them in order too (gzip)', async () => {
    const directory = await tempDir();
    const records = payloads();
    const path = join(directory, 'direct.tfrecord.gz');
    await writeAll(tfrecordSink({ path, compression: 'gzip' }), records);
    expect(Buffer.compare(gunzipSync(await readFile(path)), framedFile(records))).toBe(0);
  });

  it('writes a large directly encoded Example from its carried bytes', async () => {
    const directory = await tempDir();
    const blob = Uint8Array.from({ length: DIRECT_PAYLOAD_BYTES + 100 }, (_, index) => index % 251);
    const examples = await collectStream(
      fromArray([
        { image: blob, label: 3 },
        { image: new Uint8Array(2), label: 4 },
      ]).pipeThrough(buildExamples({ image: 'bytes', label: 'int64' })),
    );
    const path = join(directory, 'examples.tfrecord');
    await writeAll(tfrecordSink({ path }), examples);
    const expected = framedFile(examples.map((item) => encodeExample({ features: { ...item.features } })));
    expect(Buffer.compare(new Uint8Array(await readFile(path)), expected)).toBe(0);
  });
});

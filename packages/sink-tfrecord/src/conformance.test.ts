import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { testSink, testSource } from '@tfpipe/core/testing';
import { afterAll } from 'vitest';
import { collect, framedFile, tempDir } from './__fixtures__/helpers.js';
import { tfrecordSink } from './tfrecord-sink.js';
import { tfrecordSource } from './tfrecord-source.js';
import type { TfRecord } from './tf-record.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';

const keyed = (key: number): Uint8Array => new TextEncoder().encode(`record-${key}`);
const keyOfBytes = (data: Uint8Array): string => new TextDecoder().decode(data).replace('record-', '');

// Fixtures for the source suite, written once.
const fixtureDirectory = await mkdtemp(join(tmpdir(), 'tfpipe-conformance-'));
afterAll(() => rm(fixtureDirectory, { recursive: true, force: true }));
async function fixture(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(fixtureDirectory, name);
  await writeFile(path, bytes);
  return path;
}
const ordered = Array.from({ length: 10 }, (_, index) => keyed(index));
const large = Array.from({ length: 20_000 }, (_, index) => keyed(index));
const bad = framedFile(ordered.slice(0, 3));
bad[bad.length - 1]! ^= 1;

testSource<string, TfRecord>({
  name: 'tfrecordSource',
  create: (path) => tfrecordSource({ paths: path, chunkBytes: 16 * 1024 }),
  fixtures: {
    empty: await fixture('empty.tfrecord', new Uint8Array(0)),
    ordered: {
      input: await fixture('ordered.tfrecord', framedFile(ordered)),
      expectedCount: 10,
      keyOf: (record) => keyOfBytes(record.data),
    },
    large: { input: await fixture('large.tfrecord', framedFile(large)), rows: large.length },
    bad: {
      input: await fixture('bad.tfrecord', bad),
      expectedCode: 'RECORD_CRC',
      positionKeys: ['file', 'byteOffset', 'recordIndex'],
    },
  },
  // One 16 KiB chunk holds ~600 of these 24-byte frames.
  readAhead: 1024,
});

testSink<string, Uint8Array>({
  name: 'tfrecordSink',
  setup: () => tempDir(),
  create: (directory) => tfrecordSink({ directory, prefix: 'c', maxRecords: 2 }),
  records: Array.from({ length: 5 }, (_, index) => keyed(index)),
  keyOf: keyOfBytes,
  readBack: async (directory) =>
    (await collect(tfrecordSource({ paths: join(directory, 'c-*') }))).map((record) =>
      keyOfBytes(record.data),
    ),
  listFinal: async (directory) => (await readdir(directory)).filter((name) => !name.startsWith('.')),
  listAll: (directory) => readdir(directory),
  bad: { records: [keyed(0), 'not a record'], expectedCode: 'FEATURE_TYPE', positionKeys: ['recordIndex'] },
});

// Shared by the tests: temporary directories, the third-party corpus, stream helpers.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { frameRecord } from '../frame-record.js';
import { TFRECORD_CORPUS } from '../../../../test-support/corpus.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The checkout root (packages/sink-tfrecord/src/__fixtures__ → four levels up). */
export const repoRoot = resolve(here, '../../../..');
/** The vendored third-party TFRecord corpus (test-support/corpus, see its NOTICE.md). */
export const corpusDir = TFRECORD_CORPUS;

/** Every corpus file with the record count its NOTICE.md gives. */
export const CORPUS: readonly { file: string; records: number; compression: 'none' | 'gzip' }[] = [
  { file: 'tfx_penguin_train.tfrecord.gz', records: 234, compression: 'gzip' },
  { file: 'tfx_taxi_csvgen_eval_00000.tfrecord.gz', records: 424, compression: 'gzip' },
  { file: 'tfx_external_tfrecord_sequence.tfrecord.gz', records: 15000, compression: 'gzip' },
  { file: 'tfx_mnist_floats.tfrecord', records: 1000, compression: 'none' },
  { file: 'raccoon_test_jpeg.record', records: 40, compression: 'none' },
  { file: 'pwnall_singles.tfrecords', records: 3, compression: 'none' },
];

const created: string[] = [];

/** A fresh directory in os.tmpdir(), removed after the test. */
export async function tempDir(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'tfpipe-sink-tfrecord-'));
  created.push(directory);
  return directory;
}

afterEach(async () => {
  for (const directory of created.splice(0)) await rm(directory, { recursive: true, force: true });
});

/** Everything a stream yields. */
export async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

/** A stream of the given chunks. */
export function streamOf<T>(chunks: readonly T[]): ReadableStream<T> {
  let index = 0;
  return new ReadableStream<T>({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++]);
      else controller.close();
    },
  });
}

/** Writes every item to a sink and closes it. */
export async function writeAll<T>(sink: WritableStream<T>, items: readonly T[]): Promise<void> {
  await streamOf(items).pipeTo(sink);
}

/** A deterministic pseudo-random generator (mulberry32). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` payloads of pseudo-random bytes, 0 to `maxLength` long. */
export function randomPayloads(count: number, maxLength: number, seed = 1): Uint8Array[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const payload = new Uint8Array(Math.floor(next() * (maxLength + 1)));
    for (let index = 0; index < payload.length; index++) payload[index] = Math.floor(next() * 256);
    return payload;
  });
}

/** The framed bytes of several payloads, end to end. */
export function framedFile(payloads: readonly Uint8Array[]): Uint8Array {
  const frames = payloads.map((payload) => frameRecord(payload));
  const out = new Uint8Array(frames.reduce((sum, frame) => sum + frame.length, 0));
  let offset = 0;
  for (const frame of frames) {
    out.set(frame, offset);
    offset += frame.length;
  }
  return out;
}

/** Byte offsets of each frame in {@link framedFile}'s output. */
export function frameOffsets(payloads: readonly Uint8Array[]): number[] {
  const offsets: number[] = [];
  let offset = 0;
  for (const payload of payloads) {
    offsets.push(offset);
    offset += payload.length + 16;
  }
  return offsets;
}

export const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import {
  TfpipeError,
  bytes,
  emptyFeature,
  encodeExample,
  encodeSequenceExample,
  example,
  exampleFromJson,
  exampleToJson,
  float,
  int64,
  reportOf,
  sequenceExample,
  sequenceExampleFromJson,
  sequenceExampleToJson,
  type Example,
  type Feature,
  type SequenceExample,
} from '@tfpipe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc32c, maskCrc } from './crc32c.js';
import { frameRecord } from './frame-record.js';
import { tfrecordSink } from './tfrecord-sink.js';
import { tfrecordSource } from './tfrecord-source.js';
import type { LostRegion } from './tf-record.js';

// Seeded and bounded for CI; RELIABILITY_FULL=1 runs 20× more cases (reliability/fuzz.sh).
const FULL = process.env.RELIABILITY_FULL === '1';
const SEED = Number(process.env.RELIABILITY_SEED ?? 8);
const RUNS = FULL ? 1000 : 40;
const MUTATION_RUNS = FULL ? 6000 : 250;

let directory: string;
let fileNumber = 0;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-fuzz-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

const key = fc.string({
  unit: fc.constantFrom('a', 'b', '/', 'é', '東', '😀', ' ', '\0'),
  minLength: 1,
  maxLength: 6,
});
const feature: fc.Arbitrary<Feature> = fc.oneof(
  fc.array(fc.uint8Array({ maxLength: 12 }), { maxLength: 4 }).map((values) => bytes(...values)),
  fc
    .array(fc.oneof(fc.float({ noDefaultInfinity: false }), fc.constantFrom(0, -0, NaN, 1e-45, 3.4e38)), {
      maxLength: 5,
    })
    .map((values) => float(...values)),
  fc
    .array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { maxLength: 5 })
    .map((values) => int64(...values)),
  fc.constant(emptyFeature()),
);
const features = fc.dictionary(key, feature, { maxKeys: 5 });
const exampleArbitrary: fc.Arbitrary<Example> = features.map((map) => example(map));
const sequenceArbitrary: fc.Arbitrary<SequenceExample> = fc
  .tuple(features, fc.dictionary(key, fc.array(feature, { maxLength: 3 }), { maxKeys: 3 }))
  .map(([context, lists]) => sequenceExample(context, lists));

const hex = (data: Uint8Array): string => Buffer.from(data).toString('hex');

const positiveZero = (feature: Feature): Feature =>
  feature.kind === 'float'
    ? float(...Array.from(feature.value, (value) => (Object.is(value, -0) ? 0 : value)))
    : feature;
const mapFeatures = (map: Readonly<Record<string, Feature>>): Record<string, Feature> =>
  Object.fromEntries(Object.entries(map).map(([name, feature]) => [name, positiveZero(feature)]));

/** The record with every float -0 made 0: what survives JSON text. */
function withoutNegativeZero(record: Example | SequenceExample): Example | SequenceExample {
  if ('features' in record) return example(mapFeatures(record.features));
  const lists = Object.fromEntries(
    Object.entries(record.featureLists).map(([name, steps]) => [name, steps.map(positiveZero)]),
  );
  return sequenceExample(mapFeatures(record.context), lists);
}

type Mode =
  | { readonly kind: 'path' }
  | { readonly kind: 'shards'; readonly count: number }
  | { readonly kind: 'maxRecords'; readonly count: number }
  | { readonly kind: 'maxBytes'; readonly count: number };
const mode: fc.Arbitrary<Mode> = fc.oneof(
  fc.constant({ kind: 'path' } as const),
  fc.integer({ min: 1, max: 4 }).map((count) => ({ kind: 'shards', count }) as const),
  fc.integer({ min: 1, max: 5 }).map((count) => ({ kind: 'maxRecords', count }) as const),
  fc.integer({ min: 16, max: 400 }).map((count) => ({ kind: 'maxBytes', count }) as const),
);

async function readPayloads(paths: string | string[]): Promise<Uint8Array[]> {
  const payloads: Uint8Array[] = [];
  for await (const record of tfrecordSource({ paths })) payloads.push(record.data);
  return payloads;
}

describe('round trips', () => {
  it(`random Examples and SequenceExamples survive JSON, the sink and the source exactly: every compression and sharding mode (${RUNS} cases, seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(exampleArbitrary, { maxLength: 12 }),
        fc.array(sequenceArbitrary, { maxLength: 12 }),
        fc.constantFrom('none', 'gzip', 'zlib'),
        mode,
        async (sequences, examples, sequenceList, compression, shardMode) => {
          const records: (Example | SequenceExample)[] = sequences ? sequenceList : examples;
          const encode = (record: Example | SequenceExample): Uint8Array =>
            sequences ? encodeSequenceExample(record as SequenceExample) : encodeExample(record as Example);
          const toJson = (record: Example | SequenceExample): unknown =>
            sequences ? sequenceExampleToJson(record as SequenceExample) : exampleToJson(record as Example);
          const fromJson = (json: unknown): Example | SequenceExample =>
            sequences ? sequenceExampleFromJson(json) : exampleFromJson(json);
          // The JSON form is lossless as objects; as text only -0 becomes 0 (JSON.stringify writes -0 as 0).
          const throughJson = records.map((record) => fromJson(toJson(record)));
          const expected = records.map((record) => hex(encode(record)));
          expect(throughJson.map((record) => hex(encode(record)))).toEqual(expected);
          const throughText = records.map((record) => fromJson(JSON.parse(JSON.stringify(toJson(record)))));
          expect(throughText.map((record) => hex(encode(record)))).toEqual(
            records.map((record) => hex(encode(withoutNegativeZero(record)))),
          );

          const out = join(directory, `round-${fileNumber++}`);
          const payloadType = sequences ? 'SequenceExample' : 'Example';
          const sink =
            shardMode.kind === 'path'
              ? tfrecordSink({ path: join(out, 'one.tfrecord'), compression, payloadType })
              : tfrecordSink({ directory: out, compression, payloadType, [shardMode.kind]: shardMode.count });
          const writer = sink.getWriter();
          for (const record of throughJson) await writer.write(record);
          await writer.close();
          const shards = ((reportOf(sink) as { shards?: unknown } | undefined)?.shards ?? []) as {
            path: string;
            records: number;
          }[];
          const names = (await readdir(out)).filter((name) => !name.startsWith('.'));
          expect(names.length).toBe(shardMode.kind === 'path' ? 1 : Math.max(shards.length, 1));
          const read = await Promise.all(shards.map((shard) => readPayloads(shard.path)));
          if (shardMode.kind === 'shards') {
            // Round-robin: record i is in shard i mod N, in order.
            read.forEach((payloads, shard) =>
              expect(payloads.map(hex)).toEqual(
                expected.filter((_, index) => index % shardMode.count === shard),
              ),
            );
          } else {
            expect(read.flat().map(hex)).toEqual(expected);
            if (shardMode.kind === 'maxRecords')
              expect(read.every((payloads) => payloads.length <= shardMode.count)).toBe(true);
          }
          await rm(out, { recursive: true, force: true });
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

/** A file of `count` framed records of various sizes, and each frame's [start, end) byte range. */
function framedFile(count: number): { file: Uint8Array; frames: [number, number][]; payloads: string[] } {
  const parts: Uint8Array[] = [];
  const frames: [number, number][] = [];
  const payloads: string[] = [];
  let offset = 0;
  for (let index = 0; index < count; index++) {
    const payload = encodeExample(
      example({ id: int64(index), pad: bytes(new Uint8Array((index * 7) % 50)) }),
    );
    const frame = frameRecord(payload);
    parts.push(frame);
    frames.push([offset, offset + frame.length]);
    payloads.push(hex(payload));
    offset += frame.length;
  }
  return { file: Buffer.concat(parts), frames, payloads };
}

type Mutation =
  | { readonly kind: 'flip'; readonly at: number; readonly xor: number }
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'insert'; readonly at: number; readonly data: Uint8Array }
  | { readonly kind: 'delete'; readonly at: number; readonly count: number };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    data: fc.uint8Array({ minLength: 1, maxLength: 20 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 30 }) }),
);

/** Applies mutations; returns the bytes and the damaged [start, end) ranges in original offsets. */
function mutate(file: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  let bytesNow = Uint8Array.from(file);
  for (const change of mutations) {
    const at = bytesNow.length === 0 ? 0 : change.at % (bytesNow.length + 1);
    if (change.kind === 'flip' && at < bytesNow.length) bytesNow[at]! ^= change.xor;
    else if (change.kind === 'truncate') bytesNow = bytesNow.slice(0, at);
    else if (change.kind === 'insert')
      bytesNow = Buffer.concat([bytesNow.subarray(0, at), change.data, bytesNow.subarray(at)]);
    else if (change.kind === 'delete')
      bytesNow = Buffer.concat([bytesNow.subarray(0, at), bytesNow.subarray(at + change.count)]);
  }
  return bytesNow;
}

async function readAll(
  path: string,
  onError: 'fail' | 'skip',
  maxRecordBytes = 1024,
): Promise<{ payloads: string[]; error: TfpipeError | undefined; lost: LostRegion[]; lostBytes: number }> {
  const source = tfrecordSource({ paths: path, onError, maxRecordBytes, chunkBytes: 97 });
  const payloads: string[] = [];
  let error: TfpipeError | undefined;
  try {
    for await (const record of source) payloads.push(hex(record.data));
  } catch (thrown) {
    if (!TfpipeError.is(thrown)) throw new Error(`not a TfpipeError: ${String(thrown)}`, { cause: thrown });
    error = thrown;
  }
  const details = reportOf(source)?.details as { lost: LostRegion[]; lostBytes: number };
  return { payloads, error, lost: details.lost, lostBytes: details.lostBytes };
}

describe('mutated files', () => {
  it(`flipped, truncated, inserted and deleted bytes of raw, gzip and zlib files only ever raise TfpipeErrors; under skip every untouched frame of a raw file is recovered (${MUTATION_RUNS} cases, seed ${SEED})`, async () => {
    const { file, frames, payloads } = framedFile(12);
    await fc.assert(
      fc.asyncProperty(
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        fc.constantFrom('none', 'gzip', 'zlib'),
        fc.constantFrom('fail' as const, 'skip' as const),
        async (mutations, compression, onError) => {
          const packed =
            compression === 'gzip' ? gzipSync(file) : compression === 'zlib' ? deflateSync(file) : file;
          const damaged = mutate(packed, mutations);
          const path = join(directory, `mutated-${fileNumber++}`);
          await writeFile(path, damaged);
          const result = await readAll(path, onError);
          for (const payload of result.payloads) expect(payloads).toContain(payload);
          if (onError === 'fail' && result.error === undefined && compression === 'none')
            expect(result.payloads.length).toBeLessThanOrEqual(payloads.length + 1);
          if (onError === 'skip') {
            expect(result.error).toBeUndefined();
            // A single flip in a raw file damages one frame: all the others come back, in order.
            const [only] = mutations;
            if (
              compression === 'none' &&
              mutations.length === 1 &&
              only?.kind === 'flip' &&
              damaged.length > 0
            ) {
              const at = only.at % (packed.length + 1);
              const damagedFrame = frames.findIndex(([start, end]) => at >= start && at < end);
              expect(result.payloads).toEqual(payloads.filter((_, index) => index !== damagedFrame));
              if (damagedFrame >= 0) {
                const [start, end] = frames[damagedFrame]!;
                expect(result.lostBytes).toBe(end - start);
                expect(result.lost[0]).toMatchObject({ start, end });
              }
            }
          }
          await rm(path);
        },
      ),
      { seed: SEED, numRuns: MUTATION_RUNS },
    );
  });
});

/** A 12-byte frame header whose length CRC is valid for `length`: what a hostile file carries. */
function craftedHeader(length: bigint): Uint8Array {
  const header = new Uint8Array(12);
  const view = new DataView(header.buffer);
  view.setBigUint64(0, length, true);
  view.setUint32(8, maskCrc(crc32c(header.subarray(0, 8))), true);
  return header;
}

describe('hostile lengths', () => {
  it('a valid-CRC header claiming up to 2^64 bytes is RECORD_TOO_LARGE at once, never allocated; skip trusts the CRC-valid length and reports the region', async () => {
    const good = frameRecord(encodeExample(example({ id: int64(7) })));
    for (const length of [2n ** 64n - 1n, 2n ** 40n, 2n ** 31n, 1025n]) {
      // Junk that fills the claimed frame when it fits in the file, then a good frame.
      const filler = new Uint8Array(length === 1025n ? 1025 + 4 : 64);
      const path = join(directory, `huge-${fileNumber++}`);
      await writeFile(path, Buffer.concat([craftedHeader(length), filler, good]));
      const size = 12 + filler.length + good.length;
      const before = process.memoryUsage().arrayBuffers;
      const failed = await readAll(path, 'fail', 1024);
      expect(failed.error?.code).toBe('RECORD_TOO_LARGE');
      expect(failed.error?.position).toMatchObject({ byteOffset: 0, recordIndex: 0 });
      const skipped = await readAll(path, 'skip', 1024);
      if (length === 1025n) {
        expect(skipped.payloads).toEqual([hex(good.subarray(12, -4))]);
        expect(skipped.lost).toMatchObject([
          { start: 0, end: 1025 + 16, code: 'RECORD_TOO_LARGE', records: 1 },
        ]);
      } else {
        expect(skipped.lost).toMatchObject([{ start: 0, end: size, code: 'RECORD_TOO_LARGE' }]);
      }
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
    }
  });

  it('a gzip bomb (64 MiB of zeros in 64 KiB) is read with bounded memory and answered with a TfpipeError', async () => {
    const path = join(directory, `bomb-${fileNumber++}.gz`);
    // Built from 1 MiB pieces: a 64 MiB input buffer would itself sit in arrayBuffers until collected.
    const zeros = new Uint8Array(1024 * 1024);
    const gzip = createGzip({ level: 9 });
    const written = pipeline(gzip, createWriteStream(path));
    for (let piece = 0; piece < 64; piece++) {
      if (!gzip.write(zeros)) await new Promise((resolve) => gzip.once('drain', resolve));
    }
    gzip.end();
    await written;
    expect((await readFile(path)).length).toBeLessThan(128 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 5);
    const failed = await readAll(path, 'fail', 1024);
    clearInterval(timer);
    expect(failed.error?.code).toBe('RECORD_CRC');
    expect(peak - before).toBeLessThan(32 * 1024 * 1024);
  });
});

// Mutated image bytes (bit flips, byte overwrites aimed at the headers the pure-JS reader parses:
// JPEG SOF, PNG IHDR, WebP VP8/VP8L/VP8X, GIF screen descriptor; insertions, deletions, truncations)
// never crash, hang or throw anything but a TfpipeError, in keep mode (header reader, no decode) and
// in decode mode (sharp, resized to 16x16). Seeded and bounded for CI; RELIABILITY_FULL=1 runs 20×
// more cases (reliability/fuzz.sh).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import sharp, { type Sharp } from 'sharp';
import { TfpipeError, positionOf, reportOf, type Feature } from '@tfpipe/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  applyMutations,
  mutationArbitrary,
  type Mutation as SharedMutation,
} from '../../../test-support/byte-mutations.js';
import { startHangWatchdog, type HangWatchdog } from '../../../test-support/hang-watchdog.js';
import { imageSource } from './image-source.js';
import type { ImageSourceOptions } from './image-source-options.js';

const FULL = process.env.RELIABILITY_FULL === '1';
const SEED = Number(process.env.RELIABILITY_SEED ?? 8);
const RUNS = FULL ? 2000 : 100;
/** A run over a few tiny images that takes longer than this is a hang (asynchronous)... */
const CASE_TIMEOUT_MS = 10_000;
/** ...and a worker thread sees a synchronous one after this long: it prints the case and kills the process. */
const SYNC_HANG_MS = 20_000;
/** Keeps a mutated header that claims a huge image from making sharp allocate it. */
const MAX_PIXELS = 1 << 22;
/** The codes a bad image may be skipped with. */
const RECORD_CODES = new Set(['IMAGE_DECODE', 'IMAGE_UNSUPPORTED', 'IMAGE_TOO_LARGE']);

interface Base {
  readonly name: string;
  readonly extension: string;
  readonly bytes: Uint8Array;
  /** The byte range of the header the pure-JS reader parses. */
  readonly header: readonly [number, number];
}

/** A noisy RGBA picture, so that the encoders write real entropy-coded data. */
function pixels(width: number, height: number, channels: 3 | 4): Buffer {
  const data = Buffer.alloc(width * height * channels);
  let state = 12345;
  for (let index = 0; index < data.length; index++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    data[index] = (index % channels === 3 ? 200 : 0) + (state & 0x3f);
  }
  return data;
}

/** Where the SOFn segment of a JPEG starts (its marker), for aiming mutations at it. */
function sofOffset(data: Uint8Array): number {
  for (let index = 2; index + 1 < data.length; index++) {
    if (data[index] === 0xff && [0xc0, 0xc1, 0xc2].includes(data[index + 1]!)) return index;
  }
  throw new Error('no SOF marker');
}

async function makeBases(): Promise<Base[]> {
  const rgb = (): Sharp => sharp(pixels(24, 16, 3), { raw: { width: 24, height: 16, channels: 3 } });
  const rgba = (): Sharp => sharp(pixels(24, 16, 4), { raw: { width: 24, height: 16, channels: 4 } });
  const encoded: [string, string, Buffer][] = [
    ['jpeg', '.jpg', await rgb().jpeg().toBuffer()],
    [
      'jpeg-progressive-exif',
      '.jpg',
      await rgb().jpeg({ progressive: true }).withMetadata({ orientation: 6 }).toBuffer(),
    ],
    ['png-rgba', '.png', await rgba().png().toBuffer()],
    ['png-palette', '.png', await rgb().png({ palette: true }).toBuffer()],
    ['webp-lossy', '.webp', await rgb().webp({ quality: 80 }).toBuffer()],
    ['webp-lossless', '.webp', await rgba().webp({ lossless: true }).toBuffer()],
    ['webp-alpha', '.webp', await rgba().webp({ quality: 80 }).toBuffer()],
    ['gif', '.gif', await rgb().gif().toBuffer()],
  ];
  return encoded.map(([name, extension, buffer]) => {
    const bytes = new Uint8Array(buffer);
    const header: [number, number] = name.startsWith('jpeg')
      ? [sofOffset(bytes), sofOffset(bytes) + 19]
      : name.startsWith('png')
        ? [8, 33]
        : name.startsWith('webp')
          ? [0, 34]
          : [0, 13];
    return { name, extension, bytes, header };
  });
}

/** Where a mutation lands: anywhere, in the parsed header, or in the last bytes (trailers). */
type Region = 'any' | 'header' | 'tail';
type Mutation = SharedMutation<Region>;

const mutation: fc.Arbitrary<Mutation> = mutationArbitrary<Region>({
  regions: ['any', 'header', 'header', 'tail'],
  // Sizes, JPEG markers and PNG/GIF chunk bytes.
  hostileBytes: [0x00, 0xff, 0x7f, 0x80, 0x01, 0xd8, 0xd9, 0xda, 0xc0, 0x3b, 0x2c, 0x21],
  maxOverwrite: 4,
  maxDelete: 8,
});

function offsetIn(
  bytes: Uint8Array,
  header: readonly [number, number],
  where: Region,
  value: number,
): number {
  const length = bytes.length;
  const [low, high] =
    where === 'header'
      ? [Math.min(header[0], length), Math.min(header[1], length)]
      : where === 'tail'
        ? [Math.max(0, length - 16), length]
        : [0, length];
  return high > low ? low + (value % (high - low)) : value % Math.max(1, length);
}

function mutate(base: Base, mutations: readonly Mutation[]): Uint8Array<ArrayBuffer> {
  return applyMutations(base.bytes, mutations, (bytes, where, value) =>
    offsetIn(bytes, base.header, where, value),
  );
}

interface Outcome {
  /** The records, each with the file it came from. */
  readonly records: { readonly file: string; readonly row: Readonly<Record<string, unknown>> }[];
  readonly skippedErrors: readonly TfpipeError[];
  readonly skipped: number;
  readonly error: TfpipeError | undefined;
}

/** Drains an image source; fails (naming what escaped) on a hang or anything but a TfpipeError. */
async function readAll(options: ImageSourceOptions): Promise<Outcome> {
  const records: Outcome['records'] = [];
  let stream: ReturnType<typeof imageSource> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const read = async (): Promise<void> => {
    stream = imageSource({ ...options, maxPixels: MAX_PIXELS, concurrency: 2 });
    for await (const row of stream) records.push({ file: positionOf(row)?.file ?? '', row });
  };
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`hang: no end after ${CASE_TIMEOUT_MS} ms (${records.length} records)`)),
      CASE_TIMEOUT_MS,
    );
  });
  let error: TfpipeError | undefined;
  try {
    await Promise.race([read(), hang]);
  } catch (thrown) {
    if (!TfpipeError.is(thrown)) {
      const detail = thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown);
      throw new Error(`not a TfpipeError: ${detail}`, { cause: thrown });
    }
    error = thrown;
  } finally {
    clearTimeout(timer);
  }
  const report = reportOf(stream);
  return { records, skippedErrors: report?.skippedErrors ?? [], skipped: report?.skipped ?? 0, error };
}

const int64Value = (feature: unknown): number => Number((feature as Feature & { kind: 'int64' }).value[0]);

let directory: string;
let bases: Base[];
let watchdog: HangWatchdog;
let caseNumber = 0;
beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'tfpipe-image-fuzz-'));
  bases = await makeBases();
  watchdog = startHangWatchdog(SYNC_HANG_MS);
});
afterAll(async () => {
  await watchdog.stop();
  await rm(directory, { recursive: true, force: true });
});

/** Checks a run under `skip`: it completes, and every image is a record or a counted, positioned skip. */
function checkSkipRun(outcome: Outcome, files: readonly string[], intact: readonly string[]): void {
  if (outcome.error !== undefined) throw new Error(`the skip run failed: ${outcome.error.message}`);
  expect(outcome.records.length + outcome.skipped).toBe(files.length);
  expect(outcome.skippedErrors.length).toBe(outcome.skipped);
  for (const error of outcome.skippedErrors) {
    expect(TfpipeError.is(error)).toBe(true);
    expect(RECORD_CODES.has(error.code), `${error.code}: ${error.message}`).toBe(true);
    expect(files).toContain(error.position.file);
  }
  const read = new Set(outcome.records.map((record) => record.file));
  for (const file of intact) expect(read.has(file), `intact ${file} was skipped`).toBe(true);
}

describe('mutated image bytes', () => {
  test(
    `flips, overwrites (SOF, IHDR, VP8/VP8L/VP8X, GIF screen), insertions, deletions and truncations: ` +
      `records or TfpipeErrors in keep and decode mode, never a hang (${RUNS} cases, seed ${SEED})`,
    async () => {
      const codes = new Map<string, number>();
      let records = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              base: fc.nat(),
              mutations: fc.array(mutation, { maxLength: 3 }),
            }),
            { minLength: 1, maxLength: 3 },
          ),
          async (images) => {
            const root = path.join(directory, `case-${caseNumber++}`);
            const files: string[] = [];
            const intact: string[] = [];
            for (const [index, image] of images.entries()) {
              const base = bases[image.base % bases.length]!;
              const file = path.join(
                root,
                index % 2 === 0 ? 'a' : 'b',
                `${index}-${base.name}${base.extension}`,
              );
              await mkdir(path.dirname(file), { recursive: true });
              await writeFile(file, mutate(base, image.mutations));
              files.push(file);
              if (image.mutations.length === 0) intact.push(file);
            }
            watchdog.begin(
              JSON.stringify(
                images.map((image) => ({ ...image, base: bases[image.base % bases.length]!.name })),
              ),
            );
            try {
              const kept = await readAll({ folder: root, onError: 'skip' });
              checkSkipRun(kept, files, intact);
              const decoded = await readAll({
                folder: root,
                onError: 'skip',
                resize: { width: 16, height: 16 },
              });
              checkSkipRun(decoded, files, intact);
              for (const { row } of decoded.records) {
                expect(int64Value(row['image/width'])).toBe(16);
                expect(int64Value(row['image/height'])).toBe(16);
              }
              const failing = await readAll({ folder: root, resize: { width: 16, height: 16 } });
              if (failing.error !== undefined) {
                expect(RECORD_CODES.has(failing.error.code), failing.error.message).toBe(true);
                expect(files).toContain(failing.error.position.file);
              } else {
                expect(decoded.skipped).toBe(0);
              }
              for (const error of [...kept.skippedErrors, ...decoded.skippedErrors])
                codes.set(error.code, (codes.get(error.code) ?? 0) + 1);
              records += kept.records.length + decoded.records.length;
            } finally {
              watchdog.end();
              await rm(root, { recursive: true, force: true });
            }
          },
        ),
        { seed: SEED, numRuns: RUNS },
      );
      // The mutations must reach the readers and decoders: bad images are skipped with several codes,
      // and images survive too.
      expect(codes.size, JSON.stringify([...codes])).toBeGreaterThanOrEqual(2);
      expect(records).toBeGreaterThan(0);
    },
    FULL ? 3_600_000 : 60_000,
  );
});

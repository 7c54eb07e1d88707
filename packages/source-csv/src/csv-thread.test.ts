import type * as os from 'node:os';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { ENCODED } from '@tfpipe/core/internal';
import { TfpipeError, positionOf, reportOf } from '@tfpipe/core';
import type { Example } from '@tfpipe/core';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { withTempDir, writeTemp } from './__fixtures__/test-support.js';
import { csvToExamples } from './csv-features.js';
import type { CsvFeaturesOptions } from './csv-features.js';
import { autoWantsThread, setCsvThreadStarter } from './csv-thread-helper.js';
import {
  autoWantsIndexThread,
  setCsvIndexThreadStarter,
  setCsvIndexThreadTesting,
} from './csv-index-thread.js';

// The thread runs the package's built module (dist/csv-thread.js): the package's tests build first.

// The machine `threads: 'auto'` sees: eight idle cores unless a test says otherwise, so that its
// choice does not depend on the machine the tests run on or on its load.
const machine = vi.hoisted(() => ({ cores: 8, load: 0 }));
vi.mock('node:os', async (importOriginal) => ({
  ...(await importOriginal<typeof os>()),
  availableParallelism: () => machine.cores,
  loadavg: () => [machine.load, machine.load, machine.load],
}));
const SEED = Number(process.env.RELIABILITY_SEED ?? 23);
// Each case starts a worker thread: 30 cases here (chunk sizes still 16–200; the chunk starts that matter
// are the mixed-file test's), 600 in the full run.
const RUNS = process.env.RELIABILITY_FULL === '1' ? 600 : 30;

const SCHEMA = { n: 'int64', x: 'float', s: 'bytes', k: 'int64' } as const;

/** Everything a conversion gave, in order: Examples (bytes and position), skipped errors, the failure, the report. */
interface Outcome {
  readonly examples: string[];
  readonly skipped: unknown[];
  readonly failure: unknown;
  readonly records: number;
  readonly bytes: number | undefined;
  readonly byteParsed: number;
  readonly threadChunks: number;
}

function describeError(error: TfpipeError): unknown {
  return { code: error.code, message: error.message, position: error.position, fatal: error.fatal };
}

async function convert(path: string, options: Partial<CsvFeaturesOptions>): Promise<Outcome> {
  const onSkip: unknown[] = [];
  const stream = csvToExamples({
    path,
    schema: SCHEMA,
    delimiter: ',',
    onError: 'skip',
    onSkip: (error) => onSkip.push(describeError(error)),
    ...options,
  });
  const examples: string[] = [];
  // Examples positioned in another file (checked once at the end: an expect per Example cost more
  // than the conversion of a large file).
  const elsewhere: string[] = [];
  let failure: unknown;
  try {
    for await (const example of stream as ReadableStream<Example>) {
      const bytes = (example as { [ENCODED]?: Uint8Array })[ENCODED]!;
      const { file, line, row } = positionOf(example)!;
      if (file !== path) elsewhere.push(`${line}:${row} in ${String(file)}`);
      examples.push(`${line}:${row}:${Buffer.from(bytes).toString('hex')}`);
    }
  } catch (error) {
    if (!TfpipeError.is(error)) throw error;
    failure = describeError(error);
  }
  expect(elsewhere).toEqual([]);
  const report = reportOf(stream)!;
  const details = report.details as { byteParsedRecords?: number; threadChunks?: number };
  // The report keeps the first skipped errors; `onSkip` saw each, in the order they were met.
  expect((report.skippedErrors ?? []).map((error) => describeError(error))).toEqual(
    onSkip.slice(0, report.skippedErrors?.length ?? 0),
  );
  return {
    examples,
    skipped: onSkip,
    failure,
    records: report.records ?? 0,
    bytes: report.bytes,
    byteParsed: details.byteParsedRecords ?? 0,
    threadChunks: details.threadChunks ?? 0,
  };
}

/**
 * Converts on one thread and with a worker thread (`threads: 2`, or `'auto'`: the index thread on two
 * cores); everything but the thread's share must agree.
 */
async function expectSameOnTwoThreads(
  path: string,
  options: Partial<CsvFeaturesOptions>,
  threads: 2 | 'auto' = 2,
): Promise<{ one: Outcome; two: Outcome }> {
  const one = await convert(path, { ...options, threads: 1 });
  const two = await convert(path, { ...options, threads });
  expect(one.threadChunks).toBe(0);
  // Bytes read differ once a run fails: with a thread, chunks are read ahead.
  const { threadChunks: _one, bytes: oneBytes, ...oneRest } = one;
  const { threadChunks: _two, bytes: twoBytes, ...twoRest } = two;
  expect(twoRest).toEqual(oneRest);
  if (one.failure === undefined) expect(twoBytes).toBe(oneBytes);
  return { one, two };
}

/**
 * Chunk sizes of the mixed-file test, of the 41 sizes 40, 49, … 400 it once ran (each costs a thread
 * start): every size with which the thread was given a chunk starting at an empty line (58, 139, 148,
 * 202, 355), four that gave it one starting at a lone CR, the smallest (cuts at nearly every newline)
 * and the largest.
 */
const CHUNK_SIZES = [40, 58, 103, 139, 148, 202, 283, 355, 400];
/** Chunks the thread's conversions must have been taken in that test (about 230 were, unloaded). */
const THREAD_CHUNKS_AT_LEAST = 50;

/** What a chunk starting at `offset` of a CSV file starts with: the cut before it left it there. */
function chunkStart(bytes: Uint8Array, offset: number): 'record' | 'quoted' | 'empty line' | 'CR line' {
  let quotes = 0;
  for (let index = 0; index < offset; index++) if (bytes[index] === 0x22) quotes++;
  // An odd count of quotes before it: inside a quoted field (doubled quotes count two).
  if (quotes % 2 === 1) return 'quoted';
  if (bytes[offset] === 0x0d) return bytes[offset + 1] === 0x0a ? 'empty line' : 'CR line';
  return 'record';
}

/** 300 good rows numbered from `from`. */
function goodRows(from: number): string {
  return Array.from({ length: 300 }, (_, index) => `${from + index},1.5,ok,1`).join('\n');
}

/** Files with a bad value (twice), a ragged row and an open quote among good rows. */
function errorCases(): Record<'value' | 'ragged' | 'quote', string> {
  const good = goodRows;
  return {
    value: `n,x,s,k\n${good(0)}\nten,2,s,3\n${good(300)}\n1,x,s,1\n${good(600)}\n`,
    ragged: `n,x,s,k\n${good(0)}\n1,2,3\n${good(300)}\n`,
    quote: `n,x,s,k\n${good(0)}\n1,2,"open,3\n${good(300)}\n`,
  };
}

/**
 * 240 rows with a BOM, CRLF, quoted CRLFs, `""` escapes, empty lines, lines of a lone CR and
 * multi-byte UTF-8 (東京, 😀, ü, ã): chunk cuts fall at every kind of place.
 */
function mixedCsv(): string {
  const rows: string[] = [];
  for (let index = 0; index < 240; index++) {
    const text =
      index % 7 === 0
        ? `"line one\r\nline ""two"", 東京 ${index}"`
        : index % 5 === 0
          ? `São Paulo 😀 ${index}`
          : `"Zürich, ${index}"`;
    rows.push(`${index - 120},${(index * 0.37).toFixed(2)},${text},${index % 3}`);
    if (index % 11 === 0) rows.push('');
    if (index % 13 === 0) rows.push('\r');
  }
  return `\uFEFFn,x,s,k\r\n${rows.join('\r\n')}\r\n`;
}

/** A random row: mostly good cells of every kind (and bad ones), sometimes a ragged row, an empty line, a lone CR or an open quote. */
function randomRow(): fc.Arbitrary<string> {
  const int = fc.constantFrom(
    '12',
    '-7',
    '+3',
    '007',
    '123456789012345',
    '"42"',
    '',
    'ten',
    '9007199254740993',
  );
  const float = fc.constantFrom('1.5', '-0.0', '.5', '1e5', '2.5E-3', '"7.25"', '', 'inf', 'x');
  const text = fc.constantFrom(
    'abc',
    'São Paulo',
    '東京',
    '😀',
    '"a, b"',
    '"say ""hi"""',
    '"two\nlines"',
    '',
    '"ab"c',
  );
  return fc.oneof(
    { weight: 20, arbitrary: fc.tuple(int, float, text, int).map((cells) => cells.join(',')) },
    { weight: 1, arbitrary: fc.constant('1,2,3') },
    { weight: 1, arbitrary: fc.constant('1,2,3,4,5') },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constant('\r') },
    { weight: 1, arbitrary: fc.constant('1,2,"open,3') },
  );
}

afterEach(() => {
  setCsvThreadStarter(undefined);
  setCsvIndexThreadStarter(undefined);
  setCsvIndexThreadTesting(undefined);
  machine.cores = 8;
  machine.load = 0;
});

describe('threads: 2 gives what one thread gives', () => {
  test('BOM, CRLF, quoted newlines, empty lines and multi-byte UTF-8 at every kind of chunk start', async () => {
    await withTempDir(async (directory) => {
      const content = mixedCsv();
      const path = await writeTemp(directory, 'mixed.csv', content);
      // Where each chunk handed to the thread starts (the real thread, its requests observed).
      const starts: number[] = [];
      setCsvThreadStarter((url, settings) => {
        const worker = new Worker(url, { workerData: settings, name: 'tfpipe csv' });
        const post = worker.postMessage.bind(worker);
        worker.postMessage = (...message: Parameters<Worker['postMessage']>) => {
          const { byteOffset } = message[0] as { byteOffset?: number };
          if (byteOffset !== undefined) starts.push(byteOffset);
          post(...message);
        };
        return worker;
      });
      let threadChunks = 0;
      // Chunks are cut after a newline; reads of `size` bytes split 東京, 😀, ü and ã. The smallest
      // sizes cut at nearly every newline, the largest give the thread chunks of ten rows and more.
      for (const size of CHUNK_SIZES) {
        const { one, two } = await expectSameOnTwoThreads(path, { chunkBytes: size });
        expect(one.examples).toHaveLength(240);
        expect(one.failure).toBeUndefined();
        threadChunks += two.threadChunks;
      }
      // The thread was given chunks that start at each kind of place the cuts fall: a record, the
      // inside of a quoted field (after its CRLF), an empty line, a line of a lone CR.
      const bytes = Buffer.from(content);
      expect(new Set(starts.map((offset) => chunkStart(bytes, offset)))).toEqual(
        new Set(['record', 'quoted', 'empty line', 'CR line']),
      );
      // The comparison would hold trivially if the thread converted nothing.
      expect(threadChunks).toBeGreaterThan(THREAD_CHUNKS_AT_LEAST);
    });
  });

  test(`random CSV, chunk sizes 16–200: same Examples, positions, skipped errors and failures (${RUNS} cases, seed ${SEED})`, async () => {
    const row = randomRow();
    await withTempDir(async (directory) => {
      let threadChunks = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(row, { minLength: 30, maxLength: 120 }),
          fc.constantFrom('\n', '\r\n'),
          fc.boolean(),
          fc.integer({ min: 16, max: 200 }),
          fc.constantFrom('skip', 'fail'),
          async (rows, newline, bom, size, onError) => {
            const content = `${bom ? '\uFEFF' : ''}n,x,s,k${newline}${rows.join(newline)}${newline}`;
            const path = await writeTemp(directory, 'random.csv', content);
            threadChunks += (await expectSameOnTwoThreads(path, { chunkBytes: size, onError })).two
              .threadChunks;
          },
        ),
        { seed: SEED, numRuns: RUNS },
      );
      expect(threadChunks).toBeGreaterThan(RUNS / 2);
    });
  }, 120_000);

  test('errors in chunks the thread was given: the same error, position and skipped records', async () => {
    await withTempDir(async (directory) => {
      const cases = errorCases();
      for (const [name, content] of Object.entries(cases)) {
        const path = await writeTemp(directory, `${name}.csv`, content);
        for (const onError of ['skip', 'fail'] as const) {
          const { one, two } = await expectSameOnTwoThreads(path, { chunkBytes: 256, onError });
          expect(two.threadChunks).toBeGreaterThan(0);
          if (onError === 'fail') expect(one.failure).toMatchObject({ position: { file: path } });
          else if (name === 'value') expect(one.skipped).toHaveLength(2);
        }
      }
      const fail = await convert(await writeTemp(directory, 'late.csv', cases.value), {
        chunkBytes: 256,
        onError: 'fail',
        threads: 2,
      });
      expect(fail.failure).toMatchObject({ code: 'CSV_VALUE', position: { line: 302, row: 300 } });
    });
  });

  test('invalid UTF-8 deep in the file: the same CSV_ENCODING error and byte offset', async () => {
    await withTempDir(async (directory) => {
      const good = Array.from({ length: 400 }, (_, index) => `${index},1.5,ok,1`).join('\n');
      const head = Buffer.from(`n,x,s,k\n${good}\n7,2.5,bad`);
      const path = await writeTemp(
        directory,
        'utf8.csv',
        new Uint8Array([...head, 0xff, ...Buffer.from(`,1\n${good}\n`)]),
      );
      for (const onError of ['skip', 'fail'] as const) {
        const { one } = await expectSameOnTwoThreads(path, { chunkBytes: 200, onError });
        expect(one.failure).toMatchObject({ code: 'CSV_ENCODING', position: { line: 402 } });
      }
    });
  });

  test("threads 'auto' on a 4.5 MiB file, eight idle cores (chunks the thread has not started are taken back): the same", async () => {
    await withTempDir(async (directory) => {
      // 180,000 rows of ~26 bytes: more than the 4 MiB 'auto' wants left after the first chunk.
      const rows = Array.from({ length: 180_000 }, (_, index) =>
        index % 50 === 0
          ? `${index},0.25,"two\nlines, ${index}",1`
          : `${index},${index / 4},東京 ${index % 89},2`,
      );
      const path = await writeTemp(directory, 'large.csv', `n,x,s,k\n${rows.join('\n')}\n`);
      let starts = 0;
      setCsvThreadStarter((url, settings) => {
        starts++;
        return new Worker(url, { workerData: settings, name: 'tfpipe csv' });
      });
      const one = await convert(path, { threads: 1 });
      expect(starts).toBe(0);
      const auto = await convert(path, { threads: 'auto' });
      // 'auto' chose the thread (how many chunks it then took depends on the machine's scheduling).
      expect(starts).toBe(1);
      expect(one.examples).toHaveLength(180_000);
      const { threadChunks: _one, ...oneRest } = one;
      const { threadChunks: _auto, ...autoRest } = auto;
      expect(autoRest).toEqual(oneRest);
    });
    // Two conversions of 180,000 rows: several times the usual limit under the whole suite's load.
  }, 300_000);

  test("threads 'auto' wants 4 MiB left, four or more cores and one of them idle", () => {
    const MiB = 1024 * 1024;
    expect(autoWantsThread(5 * MiB, 8, 0)).toBe(true);
    expect(autoWantsThread(4 * MiB, 4, 2.9)).toBe(true);
    expect(autoWantsThread(4 * MiB - 1, 8, 0)).toBe(false);
    expect(autoWantsThread(5 * MiB, 2, 0)).toBe(false);
    expect(autoWantsThread(5 * MiB, 3, 0)).toBe(false);
    expect(autoWantsThread(5 * MiB, 8, 7)).toBe(false);
    expect(autoWantsThread(5 * MiB, 4, 3)).toBe(false);
    // Without arguments it asks the machine: here the mocked eight idle cores.
    expect(autoWantsThread(5 * MiB)).toBe(true);
  });

  test("a small file with threads 'auto' starts no thread", async () => {
    await withTempDir(async (directory) => {
      const path = await writeTemp(directory, 'small.csv', 'n,x,s,k\n1,2,a,3\n4,5,b,6\n7,8,c,9\n');
      const outcome = await convert(path, { chunkBytes: 16 });
      expect(outcome.examples).toHaveLength(3);
      expect(outcome.threadChunks).toBe(0);
    });
  });

  test('a stream is converted on the calling thread, as before', async () => {
    const content = `n,x,s,k\n${Array.from({ length: 300 }, (_, index) => `${index},1.5,ok,1`).join('\n')}\n`;
    const stream = csvToExamples({
      stream: new Blob([content]).stream(),
      schema: SCHEMA,
      threads: 2,
      chunkBytes: 64,
    });
    let count = 0;
    for await (const _ of stream as ReadableStream<Example>) count++;
    expect(count).toBe(300);
    expect((reportOf(stream)!.details as { threadChunks?: number }).threadChunks).toBeUndefined();
  });
});

describe('a thread that dies', () => {
  test('is a fatal INTERNAL TfpipeError naming the file and byte offset, never a hang', async () => {
    // The real thread module, in a worker that exits in the middle of its third chunk (claimed, not answered).
    setCsvThreadStarter(
      (url, settings) =>
        new Worker(
          `const { parentPort, workerData } = require('node:worker_threads');
           let chunks = 0;
           parentPort.on('message', (request) => {
             if (++chunks === 3) {
               Atomics.store(workerData.claims, request.slot, 1);
               process.exit(7);
             }
           });
           import(${JSON.stringify(url.href)});`,
          { eval: true, workerData: settings },
        ),
    );
    await withTempDir(async (directory) => {
      const content = `n,x,s,k\n${Array.from({ length: 2000 }, (_, index) => `${index},1.5,ok,1`).join('\n')}\n`;
      const path = await writeTemp(directory, 'crash.csv', content);
      const outcome = await convert(path, { chunkBytes: 256, threads: 2, onError: 'fail' });
      expect(outcome.failure).toMatchObject({
        code: 'INTERNAL',
        fatal: true,
        position: { file: path, byteOffset: expect.any(Number) },
      });
      expect((outcome.failure as { message: string }).message).toMatch(
        /CSV thread failed.*exited \(code 7\)/,
      );
    });
  });
});

/** Starts the real index thread and counts the chunks it is given. */
function countIndexRequests(): { chunks: number; starts: number } {
  const seen = { chunks: 0, starts: 0 };
  setCsvIndexThreadStarter((source) => {
    seen.starts++;
    const worker = new Worker(source, { eval: true, name: 'tfpipe csv index' });
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (...message: Parameters<Worker['postMessage']>) => {
      if ((message[0] as { bytes?: unknown }).bytes !== undefined) seen.chunks++;
      post(...message);
    };
    return worker;
  });
  return seen;
}

describe("threads 'auto' on two cores: the index thread gives what one thread gives", () => {
  beforeEach(() => {
    machine.cores = 2;
    // Small files use it too, and it indexes every chunk from the first.
    setCsvIndexThreadTesting({ minBytes: 0, waitForLoad: true, ignoreLoad: true });
  });

  test('BOM, CRLF, quoted newlines, empty lines and multi-byte UTF-8 at every kind of chunk start', async () => {
    await withTempDir(async (directory) => {
      const content = mixedCsv();
      const path = await writeTemp(directory, 'mixed.csv', content);
      const seen = countIndexRequests();
      for (const size of CHUNK_SIZES) {
        for (const skipEmptyLines of [false, true]) {
          const before = seen.chunks;
          const { one, two } = await expectSameOnTwoThreads(
            path,
            { chunkBytes: size, skipEmptyLines },
            'auto',
          );
          expect(one.failure).toBeUndefined();
          expect(one.examples).toHaveLength(240);
          expect(two.byteParsed).toBeGreaterThan(0);
          // The thread indexed the chunks (the comparison would hold trivially if it indexed none).
          expect(seen.chunks - before).toBeGreaterThan(2);
        }
      }
    });
  });

  test(`random CSV, chunk sizes 16–200: same Examples, positions, skipped errors and failures (${RUNS} cases, seed ${SEED})`, async () => {
    const row = randomRow();
    await withTempDir(async (directory) => {
      const seen = countIndexRequests();
      await fc.assert(
        fc.asyncProperty(
          fc.array(row, { minLength: 30, maxLength: 120 }),
          fc.constantFrom('\n', '\r\n'),
          fc.boolean(),
          fc.boolean(),
          fc.integer({ min: 16, max: 200 }),
          fc.constantFrom('skip', 'fail'),
          async (rows, newline, bom, skipEmptyLines, size, onError) => {
            const content = `${bom ? '\uFEFF' : ''}n,x,s,k${newline}${rows.join(newline)}${newline}`;
            const path = await writeTemp(directory, 'random.csv', content);
            await expectSameOnTwoThreads(path, { chunkBytes: size, onError, skipEmptyLines }, 'auto');
          },
        ),
        { seed: SEED, numRuns: RUNS },
      );
      expect(seen.chunks).toBeGreaterThan(RUNS);
    });
  }, 120_000);

  test('errors and invalid UTF-8 in indexed chunks: the same error, position and skipped records', async () => {
    await withTempDir(async (directory) => {
      const cases = errorCases();
      const files: [string, Uint8Array | string][] = Object.entries(cases);
      files.push([
        'utf8',
        new Uint8Array([
          ...Buffer.from(`n,x,s,k\n${goodRows(0)}\n7,2.5,bad`),
          0xff,
          ...Buffer.from(`,1\n${goodRows(1)}\n`),
        ]),
      ]);
      const seen = countIndexRequests();
      for (const [name, content] of files) {
        const path = await writeTemp(directory, `${name}.csv`, content);
        for (const onError of ['skip', 'fail'] as const) {
          const { one } = await expectSameOnTwoThreads(path, { chunkBytes: 256, onError }, 'auto');
          if (onError === 'fail') expect(one.failure).toMatchObject({ position: { file: path } });
          else if (name === 'value') expect(one.skipped).toHaveLength(2);
          if (name === 'utf8')
            expect(one.failure).toMatchObject({ code: 'CSV_ENCODING', position: { line: 302 } });
        }
      }
      expect(seen.chunks).toBeGreaterThan(20);
    });
  });

  test('shared chunk buffers are read into again once converted: a few for a whole file, the same output', async () => {
    await withTempDir(async (directory) => {
      // Short records, then one longer than several steps (a larger buffer), then short ones again.
      const long = `"${'x'.repeat(700)}\n${'y'.repeat(300)}"`;
      const rows = Array.from({ length: 600 }, (_, index) =>
        index === 300 ? `1,2.5,${long},3` : `${index},${index / 4},"c, ${index}",${index % 3}`,
      );
      const path = await writeTemp(directory, 'pooled.csv', `n,x,s,k\n${rows.join('\n')}\n`);
      const buffers = new Set<unknown>();
      let chunks = 0;
      setCsvIndexThreadStarter((source) => {
        const worker = new Worker(source, { eval: true, name: 'tfpipe csv index' });
        const post = worker.postMessage.bind(worker);
        worker.postMessage = (...message: Parameters<Worker['postMessage']>) => {
          const bytes = (message[0] as { bytes?: Uint8Array }).bytes;
          if (bytes !== undefined) {
            chunks++;
            buffers.add(bytes.buffer);
          }
          post(...message);
        };
        return worker;
      });
      const { one } = await expectSameOnTwoThreads(path, { chunkBytes: 200 }, 'auto');
      expect(one.examples).toHaveLength(600);
      expect(chunks).toBeGreaterThan(50);
      // Chunks read ahead (3), the one converted, and the one the long record needed.
      expect(buffers.size).toBeLessThanOrEqual(6);
    });
  });

  test('threads 1 and 2, and a small file without the seam, start no index thread', async () => {
    await withTempDir(async (directory) => {
      const path = await writeTemp(directory, 'small.csv', `n,x,s,k\n${'1,2,a,3\n'.repeat(500)}`);
      const seen = countIndexRequests();
      await convert(path, { chunkBytes: 64, threads: 1 });
      // threads: 2 asks for the converting thread, whatever the cores.
      expect((await convert(path, { chunkBytes: 64, threads: 2 })).examples).toHaveLength(500);
      expect(seen.starts).toBe(0);
      setCsvIndexThreadTesting(undefined);
      expect((await convert(path, { chunkBytes: 64, threads: 'auto' })).examples).toHaveLength(500);
      expect(seen.starts).toBe(0);
    });
  });
});

test("threads 'auto' wants the index thread for 4 MiB left and a load average below the cores", () => {
  const MiB = 1024 * 1024;
  expect(autoWantsIndexThread(4 * MiB, 2, 0)).toBe(true);
  expect(autoWantsIndexThread(70 * MiB, 2, 1.9)).toBe(true);
  expect(autoWantsIndexThread(4 * MiB - 1, 2, 0)).toBe(false);
  expect(autoWantsIndexThread(70 * MiB, 2, 2)).toBe(false);
  expect(autoWantsIndexThread(70 * MiB, 2, 11)).toBe(false);
  // Without arguments it asks the machine: here the mocked eight idle cores.
  expect(autoWantsIndexThread(5 * MiB)).toBe(true);
  machine.load = 8;
  expect(autoWantsIndexThread(5 * MiB)).toBe(false);
  machine.load = 0;
});

describe('an index thread that dies', () => {
  test('is a fatal INTERNAL TfpipeError naming the file and byte offset, never a hang', async () => {
    machine.cores = 2;
    setCsvIndexThreadTesting({ minBytes: 0, waitForLoad: true, ignoreLoad: true });
    // Says it has loaded, answers two chunks from the real source, then exits on the third.
    setCsvIndexThreadStarter((source) => {
      const worker = new Worker(source, { eval: true });
      let chunks = 0;
      const post = worker.postMessage.bind(worker);
      worker.postMessage = (...message: Parameters<Worker['postMessage']>) => {
        if (++chunks === 3) {
          void worker.terminate();
          return;
        }
        post(...message);
      };
      return worker;
    });
    await withTempDir(async (directory) => {
      const content = `n,x,s,k\n${Array.from({ length: 2000 }, (_, index) => `${index},1.5,ok,1`).join('\n')}\n`;
      const path = await writeTemp(directory, 'crash.csv', content);
      const outcome = await convert(path, { chunkBytes: 256, threads: 'auto', onError: 'fail' });
      expect(outcome.failure).toMatchObject({
        code: 'INTERNAL',
        fatal: true,
        position: { file: path, byteOffset: expect.any(Number) },
      });
      expect((outcome.failure as { message: string }).message).toMatch(
        /CSV index thread failed.*exited \(code 1\)/,
      );
    });
  });
});

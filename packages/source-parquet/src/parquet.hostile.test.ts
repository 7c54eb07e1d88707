// Hand-built hostile Parquet files on disk: a page header claiming gigabytes, a page claiming more
// than its column chunk, a zstd bomb, a schema 12,000 groups deep, and reading under `ulimit -v`.
// Each case is refused before anything large is allocated: bounded in time and memory for CI.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { TfpipeError } from '@tfpipe/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CODEC, handBuiltParquet, snappyLiteral } from './__fixtures__/hand-built-parquet.js';
import { parquetSchema } from './node/parquet-schema.js';
import { parquetSource } from './node/parquet-source.js';
import type { ParquetSourceOptions } from './node/parquet-source.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** 2^31 − 1 zero bytes (but the first, 7) as brotli at quality 11: 1,682 bytes. */
const brotliBomb = new Uint8Array(readFileSync(path.join(here, '__fixtures__/brotli-2gib.br')));
const seven = Uint8Array.of(7, 0, 0, 0);
const MiB = 1024 * 1024;

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'tfpipe-parquet-hostile-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

interface Outcome {
  readonly values: unknown[];
  readonly error: TfpipeError | undefined;
  /** ArrayBuffer growth over the start, sampled at the end, bytes. */
  readonly growth: number;
}

/** Writes `bytes` to NAME in the test folder and reads every row's `x` (anything but a TfpipeError throws). */
async function readFile(
  name: string,
  bytes: Uint8Array,
  options: Omit<ParquetSourceOptions, 'path' | 'batchSize'> = {},
): Promise<Outcome> {
  const file = path.join(directory, name);
  await writeFile(file, bytes);
  const baseline = process.memoryUsage().arrayBuffers;
  const values: unknown[] = [];
  let error: TfpipeError | undefined;
  try {
    for await (const row of parquetSource({ ...options, path: file })) values.push(row.x);
  } catch (thrown) {
    if (!TfpipeError.is(thrown)) throw thrown;
    error = thrown;
  }
  return { values, error, growth: process.memoryUsage().arrayBuffers - baseline };
}

/** A zstd frame (128 KiB window, no content size) of `blocks` RLE blocks of 128 KiB each. */
function zstdRleBomb(blocks: number): Uint8Array {
  const bytes = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38];
  for (let block = 0; block < blocks; block++) {
    const header = ((128 * 1024) << 3) | (1 << 1) | (block === blocks - 1 ? 1 : 0);
    bytes.push(header & 0xff, (header >> 8) & 0xff, header >> 16, 0x07);
  }
  return Uint8Array.from(bytes);
}

describe('page sizes are bounded before hyparquet allocates', () => {
  test('the unchanged hand-built files read (plain, snappy, gzip)', async () => {
    const plain = await readFile('plain.parquet', handBuiltParquet());
    const snappy = await readFile(
      'snappy.parquet',
      handBuiltParquet({ codec: CODEC.SNAPPY, pageData: snappyLiteral(seven), uncompressedPageSize: 4 }),
    );
    const gzip = await readFile(
      'gzip.parquet',
      handBuiltParquet({ codec: CODEC.GZIP, pageData: gzipSync(seven), uncompressedPageSize: 4 }),
    );
    for (const outcome of [plain, snappy, gzip]) {
      expect(outcome.error).toBeUndefined();
      expect(outcome.values).toEqual([7]);
    }
  });

  // Before: 36 s, 2.2 GB peak RSS, and the file converted as if sound.
  test('a 1.7 KB brotli page claiming 2^31 - 1 bytes is PARQUET_UNSUPPORTED naming maxPageBytes, at its byte', async () => {
    const bytes = handBuiltParquet({
      codec: CODEC.BROTLI,
      pageData: brotliBomb,
      uncompressedPageSize: 2 ** 31 - 1,
      chunkUncompressedSize: 1000,
    });
    const started = performance.now();
    const outcome = await readFile('brotli-bomb.parquet', bytes);
    expect(outcome.error?.code, String(outcome.error)).toBe('PARQUET_UNSUPPORTED');
    expect(outcome.error?.reason).toContain('maxPageBytes (268435456)');
    expect(outcome.error?.position).toMatchObject({ rowGroup: 0, field: 'x', byteOffset: 4 });
    expect(outcome.values).toEqual([]);
    expect(outcome.growth).toBeLessThan(64 * MiB);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  test('a page claiming more than its whole column chunk is PARQUET_FORMAT (gzip would allocate the claim)', async () => {
    const bytes = handBuiltParquet({
      codec: CODEC.GZIP,
      pageData: gzipSync(seven),
      uncompressedPageSize: 200 * MiB,
      chunkUncompressedSize: 100,
    });
    const outcome = await readFile('over-chunk.parquet', bytes);
    expect(outcome.error?.code, String(outcome.error)).toBe('PARQUET_FORMAT');
    expect(outcome.error?.reason).toBe(
      'the page claims 209715200 bytes uncompressed, more than its whole column chunk (100)',
    );
    expect(outcome.error?.position.byteOffset).toBe(4);
  });

  test('a snappy page whose header contradicts its data is PARQUET_FORMAT, not read as sound', async () => {
    // The header claims 1 MiB, the snappy preamble 4 bytes: hysnappy handed back 1 MiB and the file read.
    const bytes = handBuiltParquet({
      codec: CODEC.SNAPPY,
      pageData: snappyLiteral(seven),
      uncompressedPageSize: MiB,
    });
    const outcome = await readFile('snappy-lies.parquet', bytes);
    expect(outcome.error?.code, String(outcome.error)).toBe('PARQUET_FORMAT');
    expect(outcome.error?.reason).toBe('the page claims 1048576 bytes uncompressed, its snappy data 4');
    expect(outcome.values).toEqual([]);
  });

  test('a data page claiming more values than its column chunk is PARQUET_FORMAT', async () => {
    const outcome = await readFile('many-values.parquet', handBuiltParquet({ pageValues: 2 ** 28 }));
    expect(outcome.error?.code, String(outcome.error)).toBe('PARQUET_FORMAT');
    expect(outcome.error?.reason).toBe(
      'the page claims 268435456 values, more than its whole column chunk (1)',
    );
  });

  test('a zstd frame that outgrows its page stops at the page size (2,000 RLE blocks: 256 MiB)', async () => {
    const bytes = handBuiltParquet({
      codec: CODEC.ZSTD,
      pageData: zstdRleBomb(2000),
      uncompressedPageSize: 4,
    });
    const outcome = await readFile('zstd-bomb.parquet', bytes);
    expect(outcome.error?.code, String(outcome.error)).toBe('PARQUET_FORMAT');
    expect(outcome.error?.reason).toContain('zstd data holds more than the 4 bytes the page header says');
    expect(outcome.growth).toBeLessThan(64 * MiB);
  });

  test('maxPageBytes refuses a sound page over it, and is checked as an option', async () => {
    const data = new Uint8Array(MiB);
    data[0] = 7;
    const bytes = handBuiltParquet({
      codec: CODEC.GZIP,
      pageData: gzipSync(data),
      uncompressedPageSize: MiB,
    });
    const limited = await readFile('one-mib.parquet', bytes, { maxPageBytes: MiB / 2 });
    expect(limited.error?.code, String(limited.error)).toBe('PARQUET_UNSUPPORTED');
    expect(limited.error?.reason).toContain('over maxPageBytes (524288)');
    expect((await readFile('one-mib.parquet', bytes)).values).toEqual([7]);
    expect(() => parquetSource({ path: 'x.parquet', maxPageBytes: 0 })).toThrow(
      /parquetSource option maxPageBytes: expected a whole number ≥ 1, got 0/,
    );
  });
});

describe('schema depth', () => {
  test('a schema nested 12,000 groups deep is PARQUET_SCHEMA naming the column (overflowed the stack)', async () => {
    const bytes = handBuiltParquet({ nesting: 12_000 });
    const sourceError = (await readFile('deep.parquet', bytes)).error;
    const file = path.join(directory, 'deep.parquet');
    const schemaError = await parquetSchema(file).then(
      () => undefined,
      (error: unknown) => error,
    );
    for (const error of [schemaError, sourceError]) {
      expect(TfpipeError.is(error), String(error)).toBe(true);
      expect((error as TfpipeError).code, String(error)).toBe('PARQUET_SCHEMA');
      expect((error as TfpipeError).position).toMatchObject({ file, field: 'g0' });
    }
  });

  test('a schema nested 64 groups deep still reads', async () => {
    const outcome = await readFile('deep-64.parquet', handBuiltParquet({ nesting: 64 }));
    expect(outcome.error).toBeUndefined();
  });
});

describe.skipIf(process.platform !== 'linux')('under ulimit -v (HPC jobs)', () => {
  // hyparquet-compressors instantiates hysnappy's WebAssembly when imported, which reserves ~10 GB of
  // address space: under `ulimit -v 8000000` even an uncompressed file failed with a codeless
  // "WebAssembly.Instance(): Out of memory".
  test('a snappy file converts under ulimit -v 8000000 (8 GB)', async () => {
    const file = path.join(directory, 'ulimit-snappy.parquet');
    await writeFile(
      file,
      handBuiltParquet({ codec: CODEC.SNAPPY, pageData: snappyLiteral(seven), uncompressedPageSize: 4 }),
    );
    const script = `
      const { parquetSource } = await import('@tfpipe/source-parquet');
      const values = [];
      for await (const row of parquetSource({ path: process.argv[1] })) values.push(String(row.x));
      console.log(values.join(','));
    `;
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        'bash',
        ['-c', 'ulimit -v 8000000 && exec node --input-type=module -e "$0" "$1"', script, file],
        { cwd: path.resolve(here, '..'), timeout: 20_000 },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      );
    });
    expect(output.trim()).toBe('7');
  });
});

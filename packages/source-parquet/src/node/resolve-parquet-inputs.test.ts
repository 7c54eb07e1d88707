import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { resolveParquetInputs } from './resolve-parquet-inputs.js';
import { rejectionOf } from '@tfpipe/core/testing';

const linux = process.platform === 'linux';
if (!linux)
  console.warn('resolve-parquet-inputs.test: names that are not UTF-8 need Linux, those cases are skipped');

const parquetBytes = (value: number): Uint8Array =>
  new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'x', data: [value], type: 'INT32' }] }));

const failure = rejectionOf;

describe('resolveParquetInputs', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'tfpipe-parquet-inputs-'));
    for (const name of ['a', 'b', 'c']) await writeFile(`${directory}/${name}.parquet`, parquetBytes(1));
    await writeFile(`${directory}/_SUCCESS`, '');
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  test('{a,b} alternatives work as in the other plugins (were "no such file")', async () => {
    expect(await resolveParquetInputs([`${directory}/{a,b}.parquet`])).toEqual([
      `${directory}/a.parquet`,
      `${directory}/b.parquet`,
    ]);
  });

  test('a glob skips Spark side files as a directory does', async () => {
    expect(await resolveParquetInputs([`${directory}/*`])).toEqual(await resolveParquetInputs([directory]));
  });

  test('[z-a] is INVALID_OPTION naming the pattern', async () => {
    const error = await failure(resolveParquetInputs([`${directory}/[z-a].parquet`]));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toContain('"z-a" is out of order');
  });

  test.skipIf(!linux)(
    'a directory holding a data file whose name is not UTF-8 fails naming it (was INPUT_NOT_FOUND "no such file")',
    async () => {
      await mkdir(`${directory}/part=1`);
      await writeFile(
        Buffer.concat([Buffer.from(`${directory}/part=1/d`), Buffer.from([0xff]), Buffer.from('.parquet')]),
        parquetBytes(2),
      );
      for (const input of [directory, `${directory}/**/*.parquet`]) {
        const error = await failure(resolveParquetInputs([input]));
        expect(error.code).toBe('IO');
        expect(error.position.file).toBe(`${directory}/part=1/d\\xFF.parquet`);
      }
    },
  );
});

import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TfpipeError, bytes, encodeExample, example, int64 } from '@tfpipe/core';
import { csvSource } from '@tfpipe/source-csv';
import { frameRecords, unframeRecords } from '@tfpipe/sink-tfrecord/web';
import { countRecords, tfrecordSource, verifyTfrecord } from '@tfpipe/sink-tfrecord';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, writeRowsCsv } from './__fixtures__/reliability.js';
import { tfpipe } from './__fixtures__/run-cli.js';

let directory: string;
let csv: string;
const ROWS = 20_000;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-faults-'));
  csv = join(directory, 'rows.csv');
  await writeRowsCsv(csv, ROWS);
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** Names left in `out` (none must be a final shard name unless complete). */
async function leftovers(out: string): Promise<string[]> {
  return readdir(out).catch(() => []);
}

describe('resource faults', () => {
  it('an output path under a regular file is OUTPUT_UNWRITABLE naming it', async () => {
    const file = join(directory, 'plain-file');
    await writeFile(file, 'x');
    const result = await tfpipe(['convert', csv, join(file, 'out'), '--shards', '2']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[OUTPUT_UNWRITABLE]');
    expect(result.stderr).toContain(join(file, 'out'));
  });

  it('a disk filling mid-write (ulimit -f: EFBIG) is DISK_FULL, and nothing is left behind', async () => {
    const out = join(directory, 'full');
    // 256 KiB of file size allowed: the first shard's writes fail part-way.
    const { exited } = startCli(['convert', csv, out, '--shards', '2', '--manifest'], {
      fileSizeBlocks: 256,
    });
    const { code, stderr } = await exited;
    expect(code).toBe(1);
    expect(stderr).toContain('[DISK_FULL]');
    expect(stderr).toMatch(/tfpipe-tmp|data-0000/);
    expect(await leftovers(out)).toEqual([]);
  });

  it('an input FIFO is INPUT_NOT_FILE at once (never a blocked open), for CSV and TFRecord', async () => {
    for (const name of ['pipe.csv', 'pipe.tfrecord']) {
      const fifo = join(directory, name);
      execFileSync('mkfifo', [fifo]);
      const result = await tfpipe(['convert', fifo, join(directory, `fifo-out-${name}`)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('[INPUT_NOT_FILE]');
      expect(result.stderr).toContain(fifo);
    }
  });

  it('a directory given as a TFRecord source is INPUT_NOT_FILE, and a missing one INPUT_NOT_FOUND', async () => {
    const folder = join(directory, 'folder.tfrecord');
    await mkdir(folder);
    const read = async (path: string): Promise<TfpipeError> => {
      try {
        for await (const _ of tfrecordSource({ paths: path })) void _;
      } catch (error) {
        if (TfpipeError.is(error)) return error;
        throw error;
      }
      throw new Error('no error');
    };
    expect(await read(folder)).toMatchObject({ code: 'INPUT_NOT_FILE', position: { file: folder } });
    expect(await read(join(directory, 'gone.tfrecord'))).toMatchObject({ code: 'INPUT_NOT_FOUND' });
  });

  it('a CSV that shrinks or grows while it is read is INPUT_CHANGED, never a silent cut', async () => {
    for (const change of ['shrink', 'grow'] as const) {
      const path = join(directory, `changing-${change}.csv`);
      await writeRowsCsv(path, ROWS);
      let error: unknown;
      let rows = 0;
      try {
        for await (const _ of csvSource({ path })) {
          if (rows++ === 0) {
            if (change === 'shrink') await truncate(path, 1000);
            else await writeFile(path, '1,2,3,4\n'.repeat(100_000), { flag: 'a' });
          }
        }
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toMatchObject({ code: 'INPUT_CHANGED', position: { file: path } });
      expect(rows).toBeLessThan(ROWS);
    }
  });

  it('a TFRecord that shrinks while it is read is INPUT_CHANGED', async () => {
    const path = join(directory, 'changing.tfrecord');
    await writeFile(path, await framed(20_000));
    let error: unknown;
    let records = 0;
    try {
      for await (const _ of tfrecordSource({ paths: path, chunkBytes: 4096 }))
        if (records++ === 0) await truncate(path, 5000);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toMatchObject({ code: 'INPUT_CHANGED', position: { file: path } });
  });
});

/** A TFRecord file of `count` Examples `{id}` framed by the web entry. */
async function framed(count: number): Promise<Uint8Array> {
  const payloads = Array.from({ length: count }, (_, id) =>
    encodeExample(example({ id: int64(id), pad: bytes('x'.repeat(id % 40)) })),
  );
  const chunks: Uint8Array[] = [];
  await new ReadableStream<Uint8Array>({
    start(controller) {
      for (const payload of payloads) controller.enqueue(payload);
      controller.close();
    },
  })
    .pipeThrough(frameRecords())
    .pipeTo(new WritableStream({ write: (chunk) => void chunks.push(chunk) }));
  return Buffer.concat(chunks);
}

describe('verify --repair', () => {
  it('writes every record that verifies to a new file and prints each lost range; OUT verifies', async () => {
    const file = join(directory, 'damaged.tfrecord');
    const good = await framed(1000);
    const damaged = Uint8Array.from(good);
    // Damage three records: a data byte, a length byte, and 9 bytes of garbage over a frame boundary.
    for (const at of [1500, 20_000, 40_000])
      for (let index = 0; index < (at === 40_000 ? 9 : 1); index++) damaged[at + index]! ^= 0x5a;
    await writeFile(file, damaged);
    const out = join(directory, 'repaired.tfrecord.gz');
    const result = await tfpipe(['verify', file, '--repair', out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /lost bytes \d+-\d+ \(\d+ bytes, .*\) of .*damaged\.tfrecord: .* \[RECORD_CRC\]/,
    );
    expect(result.stdout).toMatch(/^REPAIRED\t\d+ records written to /);
    const verified = await verifyTfrecord(out);
    expect(verified.ok).toBe(true);
    const written = Number(/\t(\d+) records written/.exec(result.stdout)?.[1]);
    expect(verified.records).toBe(written);
    expect(written).toBeGreaterThanOrEqual(1000 - 5);
    expect(written).toBeLessThan(1000);
    // Every repaired payload is one of the originals, in order.
    const original: string[] = [];
    for await (const record of new ReadableStream({
      start(controller) {
        controller.enqueue(good);
        controller.close();
      },
    }).pipeThrough(unframeRecords()))
      original.push(Buffer.from(record.data).toString('hex'));
    const repaired: string[] = [];
    for await (const record of tfrecordSource({ paths: out }))
      repaired.push(Buffer.from(record.data).toString('hex'));
    let cursor = 0;
    for (const payload of repaired) {
      cursor = original.indexOf(payload, cursor) + 1;
      expect(cursor).toBeGreaterThan(0);
    }
    expect(
      await readdir(directory).then((names) => names.filter((name) => name.includes('tfpipe-tmp'))),
    ).toEqual([]);
  });

  it('repairs a clean file to an identical copy with exit 0, and refuses to write over its input', async () => {
    const file = join(directory, 'clean.tfrecord');
    await writeFile(file, await framed(100));
    const out = join(directory, 'clean-copy.tfrecord');
    const result = await tfpipe(['verify', file, '--repair', out]);
    expect(result.code).toBe(0);
    expect(Buffer.compare(await readFile(out), await readFile(file))).toBe(0);
    expect(await countRecords(out)).toBe(100);
    const self = await tfpipe(['verify', file, '--repair', file]);
    expect(self.code).not.toBe(0);
    expect(self.stderr).toContain('[INVALID_OPTION]');
  });
});

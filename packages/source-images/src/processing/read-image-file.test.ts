import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFile, readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { crc32c } from '@tfpipe/sink-tfrecord/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { eachTemporaryDirectory, photo, put } from '../__fixtures__/make-images.js';
import { FILE_TOO_LARGE, NOT_A_FILE, readImageFileHere } from './read-image-file-here.js';
import { readImageFile, stopImageReaders } from './read-image-file.js';

let dir: string;
eachTemporaryDirectory((made) => (dir = made));
afterEach(() => stopImageReaders());

const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** Files of sizes around Node's pooled-Buffer limit and well past it, with different bytes. */
async function files(): Promise<string[]> {
  const made: string[] = [];
  made.push(await put(dir, 'empty.bin', Buffer.alloc(0)));
  made.push(await put(dir, 'one.bin', Buffer.from([0x61])));
  // 'abc' has a published SHA-256 (FIPS 180-2 appendix B.1).
  made.push(await put(dir, 'abc.bin', 'abc'));
  for (const size of [100, 4095, 4096, 4097, 65_536, 300_001]) {
    const bytes = Buffer.alloc(size);
    for (let index = 0; index < size; index++) bytes[index] = (index * 31 + size) & 0xff;
    made.push(await put(dir, `sized-${size}.bin`, bytes));
  }
  made.push(await put(dir, 'photo.jpg', await photo(320, 240, 5)));
  return made;
}

/** Each thread of this process with its nice value (Linux: field 19 of /proc/self/task/<tid>/stat). */
async function niceness(): Promise<Map<string, number>> {
  const threads = new Map<string, number>();
  for (const task of await readdir('/proc/self/task')) {
    const line = await readFile(`/proc/self/task/${task}/stat`, 'utf8').catch(() => undefined);
    // The fields after the command name (which may hold spaces) start at field 3.
    if (line !== undefined) threads.set(task, Number(line.slice(line.lastIndexOf(') ') + 2).split(' ')[16]));
  }
  return threads;
}

describe('readImageFile (reader threads)', () => {
  it.skipIf(process.platform !== 'linux')(
    'runs its threads 5 nice levels below the main thread (Linux)',
    async () => {
      const before = await niceness();
      const main = before.get(String(process.pid))!;
      const file = await put(dir, 'one.bin', Buffer.from([0x61]));
      await readImageFile(file, false);
      const started = [...(await niceness())].filter(([task]) => !before.has(task));
      expect(started.length).toBeGreaterThan(0);
      // The reader thread the read started is at the main thread's level + 5.
      expect(started.some(([, nice]) => nice === Math.min(19, main + 5))).toBe(true);
    },
  );

  it('gives each file byte for byte, with the same hex SHA-256 as node:crypto on this thread', async () => {
    for (const file of await files()) {
      const expected = await readFile(file);
      const read = await readImageFile(file, true);
      expect(Buffer.from(read.data).equals(expected)).toBe(true);
      expect(read.sha256).toBe(sha256(expected));
      expect(read.sha256).toBe((await readImageFileHere(file, true)).sha256);
    }
    const abc = await readImageFile(path.join(dir, 'abc.bin'), true);
    expect(abc.sha256).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('computes the CRC-32C of each file when asked (the check value, and the JS CRC of the sink)', async () => {
    const check = await readImageFile(await put(dir, 'check.bin', '123456789'), false, true);
    expect(check.crc32c).toBe(0xe3069283);
    for (const file of await files()) {
      const read = await readImageFile(file, true, true);
      expect(read.crc32c).toBe(crc32c(await readFile(file)));
      expect((await readImageFile(file, true)).crc32c).toBeUndefined();
    }
  });

  it('reads later files into buffers given back, larger and smaller ones in turn, byte for byte', async () => {
    const made = await files();
    // Largest first, then smallest, and so on: each file lands in a buffer an earlier one filled.
    const sizes = new Map(
      await Promise.all(made.map(async (file) => [file, (await stat(file)).size] as const)),
    );
    const bySize = [...made].sort((a, b) => sizes.get(b)! - sizes.get(a)!);
    const order = bySize.flatMap((_, index) => [bySize[index]!, bySize[bySize.length - 1 - index]!]);
    let reused = 0;
    let previous: { readonly data: Uint8Array; readonly giveBack?: () => void } | undefined;
    for (const file of order) {
      const expected = await readFile(file);
      const read = await readImageFile(file, true);
      // The buffer given back went to the reader with this request: detached here.
      if (previous !== undefined) expect(previous.data.byteLength).toBe(0);
      if (read.data.buffer.byteLength !== Math.max(65_536, Math.ceil(expected.length / 65_536) * 65_536))
        reused++;
      expect([read.data.byteOffset, read.data.byteLength]).toEqual([0, expected.length]);
      expect(Buffer.from(read.data).equals(expected)).toBe(true);
      expect(read.sha256).toBe(sha256(expected));
      read.giveBack!();
      previous = read;
    }
    // The 300,001-byte file's buffer (327,680 bytes) served the smaller ones read after it.
    expect(reused).toBeGreaterThan(0);
  });

  it('sends a buffer given back twice only once', async () => {
    const file = await put(dir, 'a.bin', 'abc');
    const first = await readImageFile(file, false);
    first.giveBack!();
    first.giveBack!();
    // A second transfer of the same buffer would make the next request throw (DataCloneError).
    const second = await readImageFile(file, false);
    expect(Buffer.from(second.data).toString()).toBe('abc');
    expect(first.data.byteLength).toBe(0);
  });

  it.skipIf(process.platform !== 'linux')(
    'reads a file whose size the file system does not know to its end (/proc, size 0)',
    async () => {
      const status = '/proc/self/status';
      expect((await stat(status)).size).toBe(0);
      const read = await readImageFile(status, true);
      expect(Buffer.from(read.data).toString()).toMatch(/^Name:/);
      expect(read.data.length).toBeGreaterThan(100);
    },
  );

  it('refuses a FIFO without opening it (with no writer, opening it would wait forever)', async () => {
    const fifo = path.join(dir, 'pipe');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      return; // no mkfifo here
    }
    for (const read of [() => readImageFile(fifo, true), () => readImageFileHere(fifo, true)]) {
      await expect(read()).rejects.toMatchObject({ code: NOT_A_FILE, kind: 'a FIFO' });
    }
  });

  it('refuses a file of more than maxBytes from its size, and one that grows past it', async () => {
    const file = await put(dir, 'big.bin', Buffer.alloc(1000));
    const reads = [() => readImageFile(file, false, false, 999), () => readImageFileHere(file, false, 999)];
    for (const read of reads) {
      await expect(read()).rejects.toMatchObject({ code: FILE_TOO_LARGE, size: 1000 });
    }
    expect((await readImageFile(file, false, false, 1000)).data.length).toBe(1000);
    if (process.platform === 'linux') {
      // /proc files say size 0 and are read to their end: the cap still holds while reading.
      await expect(readImageFile('/proc/self/status', false, false, 10)).rejects.toMatchObject({
        code: FILE_TOO_LARGE,
      });
    }
  });

  it('leaves the hash out unless asked for', async () => {
    const file = await put(dir, 'a.bin', 'abc');
    expect((await readImageFile(file, false)).sha256).toBeUndefined();
  });

  it('answers many reads at once, more than there are threads, each with its own file', async () => {
    const made = await files();
    const requests = Array.from({ length: 60 }, (_, index) => made[index % made.length]!);
    const answers = await Promise.all(requests.map((file) => readImageFile(file, true)));
    for (const [index, answer] of answers.entries()) {
      expect(answer.sha256).toBe(sha256(await readFile(requests[index]!)));
    }
  });

  it('rejects a missing file with the file system error code and the path, a directory as no file', async () => {
    const missing = path.join(dir, 'missing.jpg');
    await expect(readImageFile(missing, true)).rejects.toMatchObject({
      code: 'ENOENT',
      message: expect.stringContaining(missing) as unknown,
    });
    await expect(readImageFile(dir, true)).rejects.toMatchObject({ code: NOT_A_FILE, kind: 'a directory' });
    // The thread that answered with an error still serves the next read.
    const file = await put(dir, 'after.bin', 'abc');
    expect((await readImageFile(file, true)).sha256).toBe(sha256(Buffer.from('abc')));
  });

  it('rejects reads in progress when the threads stop, and starts new threads for the next read', async () => {
    const made = await files();
    // The threads are new (afterEach stopped the last ones) and take ~20 ms to start, so these reads
    // are still waiting when they stop.
    const pending = made.map((file) =>
      readImageFile(file, true).then(
        () => undefined,
        (error: unknown) => error,
      ),
    );
    await stopImageReaders();
    const failures = (await Promise.all(pending)).filter((outcome) => outcome !== undefined);
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(Error);
      expect((failure as NodeJS.ErrnoException).code).toBeUndefined();
    }
    expect((await readImageFile(made[2]!, true)).sha256).toBe(sha256(Buffer.from('abc')));
  });
});

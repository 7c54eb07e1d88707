import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import type { TfpipeError } from '@tfpipe/core';
import { resolveImageOptions } from '../image-source-options.js';
import { readTaskFile } from './read-task-file.js';
import * as path from 'node:path';
import { crc32c } from '@tfpipe/sink-tfrecord/internal';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eachTemporaryDirectory, photo, put } from '../__fixtures__/make-images.js';
import { FILE_TOO_LARGE, NOT_A_FILE, readImageFileHere } from './read-image-file-here.js';
import { AdaptiveReads, isSlowRead, SLOW_READ_MS } from './adaptive-reads.js';
import { readImageFile, readerThreadStarts, stopImageReaders, type ImageFile } from './read-image-file.js';

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

  it('rejects reads already sent to a thread when the threads stop, as well as reads not sent yet', async () => {
    const made = await files();
    const outcome = (read: Promise<ImageFile>): Promise<unknown> =>
      read.then(
        () => undefined,
        (error: unknown) => error,
      );
    // Sent: the requests go out once this turn's callbacks are done.
    const sent = made.map((file) => outcome(readImageFile(file, true)));
    await new Promise((resolve) => setImmediate(resolve));
    await stopImageReaders();
    // Queued: the threads stop in the same turn, before the reads go out.
    const queued = made.map((file) => outcome(readImageFile(file, true)));
    await stopImageReaders();
    const failures = (await Promise.all([...sent, ...queued])).filter((error) => error !== undefined);
    expect(failures.length).toBeGreaterThan(made.length);
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(Error);
      expect((failure as NodeJS.ErrnoException).code).toBeUndefined();
    }
    expect((await readImageFile(made[2]!, true)).sha256).toBe(sha256(Buffer.from('abc')));
  });

  it('sends the reads asked for in one turn as one message per thread, each answered with its own file or error', async () => {
    const made = await files();
    const missing = path.join(dir, 'missing.jpg');
    const big = await put(dir, 'big.bin', Buffer.alloc(1000));
    const posted = vi.spyOn(Worker.prototype, 'postMessage');
    try {
      // Good files, refusals and failures mixed, so that one message carries several of each.
      const asked = [...made, missing, dir, big, ...made.slice().reverse()];
      const outcomes = await Promise.all(
        asked.map((file) =>
          readImageFile(file, true, true, 999_999).then(
            (answer) => answer,
            (error: unknown) => error as NodeJS.ErrnoException & { kind?: string },
          ),
        ),
      );
      const requests = posted.mock.calls
        .map(([message]) => (message as { files?: unknown[] }).files)
        .filter((files) => files !== undefined);
      // At most one message per thread (4 at most), far fewer than the reads.
      expect(requests.length).toBeLessThanOrEqual(4);
      expect(requests.reduce((sum, files) => sum + files.length, 0)).toBe(asked.length);
      for (const [index, file] of asked.entries()) {
        const outcome = outcomes[index]!;
        if (file === missing) expect(outcome).toMatchObject({ code: 'ENOENT' });
        else if (file === dir) expect(outcome).toMatchObject({ code: NOT_A_FILE, kind: 'a directory' });
        else if (file === big) expect((outcome as ImageFile).data.length).toBe(1000);
        else if (file.endsWith('sized-300001.bin') || file.endsWith('photo.jpg')) {
          const data = await readFile(file);
          if (data.length > 999_999) expect(outcome).toMatchObject({ code: FILE_TOO_LARGE });
          else expect(Buffer.from((outcome as ImageFile).data).equals(data)).toBe(true);
        } else {
          const data = await readFile(file);
          const answer = outcome as ImageFile;
          expect(Buffer.from(answer.data).equals(data)).toBe(true);
          expect(answer.sha256).toBe(sha256(data));
          if (answer.crc32c !== undefined) expect(answer.crc32c).toBe(crc32c(data));
        }
      }
    } finally {
      posted.mockRestore();
    }
  });
});

/** The two ways a file to decode is read: on a reader thread, and on this thread by an AdaptiveReads. */
const paths = [
  ['a reader thread', () => undefined],
  // Never slow: every read stays on this thread.
  ['this thread (AdaptiveReads)', () => new AdaptiveReads(Number.POSITIVE_INFINITY)],
] as const;

describe.each(paths)('readImageFile of a file to decode, on %s', (_name, makeHere) => {
  const read = (file: string, here: AdaptiveReads | undefined, maxBytes?: number): Promise<ImageFile> =>
    readImageFile(file, false, false, maxBytes, 1, here);

  it('gives each file byte for byte, and reads later files into the buffers given back', async () => {
    const here = makeHere();
    const starts = readerThreadStarts();
    const made = await files();
    const sizes = new Map(
      await Promise.all(made.map(async (file) => [file, (await stat(file)).size] as const)),
    );
    const bySize = [...made].sort((a, b) => sizes.get(b)! - sizes.get(a)!);
    const order = bySize.flatMap((_, index) => [bySize[index]!, bySize[bySize.length - 1 - index]!]);
    const buffers = new Set<ArrayBufferLike>();
    for (const file of order) {
      const expected = await readFile(file);
      const answer = await read(file, here);
      expect([answer.data.byteOffset, answer.data.byteLength]).toEqual([0, expected.length]);
      expect(Buffer.from(answer.data).equals(expected)).toBe(true);
      expect(answer.sha256).toBeUndefined();
      buffers.add(answer.data.buffer);
      answer.giveBack!();
      answer.giveBack!();
    }
    if (here !== undefined) {
      // Every read on this thread, into far fewer buffers than files (the 300,001-byte file's served the rest).
      expect(here.readsHere).toBe(order.length);
      expect(here.here).toBe(true);
      expect(readerThreadStarts()).toBe(starts);
      expect(buffers.size).toBeLessThan(order.length / 2);
    } else {
      expect(readerThreadStarts()).toBeGreaterThan(starts);
    }
  });

  it('refuses a FIFO without opening it, a directory, a missing file (with its path) and a file over maxBytes', async () => {
    const here = makeHere();
    const fifo = path.join(dir, 'pipe');
    let fifoMade = true;
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      fifoMade = false; // no mkfifo here
    }
    if (fifoMade) await expect(read(fifo, here)).rejects.toMatchObject({ code: NOT_A_FILE, kind: 'a FIFO' });
    await expect(read(dir, here)).rejects.toMatchObject({ code: NOT_A_FILE, kind: 'a directory' });
    const missing = path.join(dir, 'missing.jpg');
    await expect(read(missing, here)).rejects.toMatchObject({
      code: 'ENOENT',
      message: `ENOENT: no such file or directory, stat '${missing}'`,
    });
    const big = await put(dir, 'big.bin', Buffer.alloc(1000));
    await expect(read(big, here, 999)).rejects.toMatchObject({ code: FILE_TOO_LARGE, size: 1000 });
    expect((await read(big, here, 1000)).data.length).toBe(1000);
    if (process.platform === 'linux') {
      // Size 0 in stat: read to the end, and the cap holds while reading.
      const status = await read('/proc/self/status', here);
      expect(Buffer.from(status.data).toString()).toMatch(/^Name:/);
      await expect(read('/proc/self/status', here, 10)).rejects.toMatchObject({ code: FILE_TOO_LARGE });
    }
    if (here !== undefined) expect(here.here).toBe(true);
  });

  it('reads files with hostile names byte for byte', async () => {
    const here = makeHere();
    const names = [
      'with space.jpg',
      'new\nline.jpg',
      'quote\'and"double.jpg',
      '-starts-with-dash.jpg',
      'back\\slash %s $HOME.jpg',
      'ünïcødé-日本.jpg',
      `${'x'.repeat(240)}.jpg`,
      '.hidden.jpg',
    ];
    for (const [index, name] of names.entries()) {
      const bytes = await photo(16 + index, 12, index);
      const file = await put(dir, name, bytes);
      const answer = await read(file, here);
      expect(Buffer.from(answer.data).equals(bytes)).toBe(true);
      answer.giveBack!();
    }
  });
});

describe('AdaptiveReads', () => {
  it('counts a read as slow from 5 ms when a disk was read meanwhile, else from 20 ms (a descheduled thread)', () => {
    expect(SLOW_READ_MS).toBe(5);
    expect([4.99, 5, 19.99, 20].map((took) => isSlowRead(took, 5, true))).toEqual([false, true, true, true]);
    expect([4.99, 5, 19.99, 20].map((took) => isSlowRead(took, 5, false))).toEqual([
      false,
      false,
      false,
      true,
    ]);
  });

  it('moves to a reader thread for good after the first slow read', async () => {
    const starts = readerThreadStarts();
    // Every read counts as slow: the first is made here, the rest on a reader thread.
    const here = new AdaptiveReads(0);
    const made = await files();
    const first = await readImageFile(made[2]!, false, false, undefined, 1, here);
    expect(Buffer.from(first.data).toString()).toBe('abc');
    expect([here.readsHere, here.here, readerThreadStarts()]).toEqual([1, false, starts]);
    for (const file of made) {
      const answer = await readImageFile(file, false, false, undefined, 1, here);
      expect(Buffer.from(answer.data).equals(await readFile(file))).toBe(true);
    }
    expect(here.readsHere).toBe(1);
    expect(readerThreadStarts()).toBe(starts + 1);
  });

  it('counts a refused read that was slow too, and never reads a hash or CRC here', async () => {
    const here = new AdaptiveReads(0);
    await expect(readImageFile(dir, false, false, undefined, 1, here)).rejects.toMatchObject({
      code: NOT_A_FILE,
    });
    expect([here.readsHere, here.here]).toEqual([1, false]);
    const fast = new AdaptiveReads(Number.POSITIVE_INFINITY);
    const file = await put(dir, 'a.bin', 'abc');
    expect((await readImageFile(file, true, false, undefined, 1, fast)).sha256).toBe(
      sha256(Buffer.from('abc')),
    );
    expect((await readImageFile(file, false, true, undefined, 1, fast)).crc32c).toBe(
      crc32c(Buffer.from('abc')),
    );
    expect(fast.readsHere).toBe(0);
  });
});

describe('readTaskFile of a file to decode', () => {
  it('raises the same TfpipeError, with the same position, on a reader thread and on this thread', async () => {
    const options = resolveImageOptions({ folder: dir, resize: { width: 8, height: 8 }, maxFileBytes: 999 });
    const big = await put(dir, 'c/big.jpg', Buffer.alloc(1000));
    const outside = await put(path.join(dir, '..'), `outside-${path.basename(dir)}.jpg`, 'x');
    const cases = [path.join(dir, 'c/missing.jpg'), path.join(dir, 'c'), big, outside];
    const codes: unknown[] = [];
    for (const [index, file] of cases.entries()) {
      const task = { path: file, root: dir, filename: path.basename(file), sourceId: path.basename(file) };
      const position = { file, recordIndex: index };
      const failures = await Promise.all(
        [undefined, new AdaptiveReads(Number.POSITIVE_INFINITY)].map((here) =>
          readTaskFile(task, options, position, false, here).then(
            () => undefined,
            (error: unknown) => error as TfpipeError,
          ),
        ),
      );
      const [thread, main] = failures.map((error) => [error?.code, error?.message, error?.position]);
      codes.push(thread![0]);
      expect(main).toEqual(thread);
    }
    expect(codes).toEqual(['INPUT_NOT_FOUND', 'INPUT_NOT_FILE', 'IMAGE_TOO_LARGE', 'PATH_ESCAPE']);
    await rm(outside);
  });
});

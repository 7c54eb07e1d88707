import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { RequestThread } from '@tfpipe/core/internal';
import { nativeCrc32cPath } from '@tfpipe/node-utils';
import type { AdaptiveReads } from './adaptive-reads.js';
import { MAX_READABLE_BYTES, readImageFileHere, type ReadRefusal } from './read-image-file-here.js';
import { READER_LIMITS, wholeFileReader } from './whole-file-reader.js';

/** A whole image file, and its hex SHA-256 when asked for. */
export interface ImageFile {
  readonly data: Uint8Array;
  /** Lowercase hex SHA-256 of `data`; `undefined` unless asked for. */
  readonly sha256: string | undefined;
  /**
   * CRC-32C of `data` (the CRC a TFRecord frame masks), when asked for and a reader thread with the
   * native `@node-rs/crc32` read the file; else `undefined`.
   */
  readonly crc32c?: number | undefined;
  /**
   * Hands `data`'s memory back to the reader that read it, for a later file: read by a reader
   * thread, `data` (and every view of its buffer) becomes empty here; read on this thread by an
   * {@link AdaptiveReads}, its bytes are overwritten by a later file. Only for a caller sure that
   * nothing reads `data` afterwards; once is enough, more calls do nothing. Absent when the file was
   * read by the fallback on this thread (no threads).
   */
  readonly giveBack?: () => void;
}

/** Reader threads at most: 4 read and hash far faster than any disk serves 100 KB images. */
const MAX_READERS = Math.max(1, Math.min(4, availableParallelism()));

/** How much lower than the main thread's a reader thread's priority is (nice levels, Linux). */
const READER_NICENESS = 5;

/** How long a reader thread with nothing to do stays alive, milliseconds. */
const IDLE_EXIT_MS = 5000;

// The reader thread, as source code: a string works the same from the built package, from the
// TypeScript sources under vitest and from a bundle, where a separate worker file would need a path.
//
// A file is read into a buffer the thread keeps from earlier files when one is large enough (the
// smallest such), else into a new one of the size rounded up to 64 KiB. The buffer is transferred to
// the main thread, and comes back with a later request once its record is written (giveBack): V8
// counts every new ArrayBuffer as off-heap allocation, and a fresh one per image made the main
// thread collect its whole heap every few hundred images. A thread keeps at most 16 buffers
// and 32 MiB (READER_LIMITS); what comes back beyond that is left to the collector.
//
// On Linux each reader thread lowers its own priority by READER_NICENESS (see readImageFile). Where
// the native @node-rs/crc32 loads (and gives the check value), a thread computes a file's CRC-32C
// when asked, right after reading it. Made on the first thread's start, not on import.
const readerSource = (): string => `'use strict';
const { parentPort } = require('node:worker_threads');
const { readlinkSync } = require('node:fs');
const { createHash } = require('node:crypto');
const { getPriority, setPriority } = require('node:os');
try {
  // This thread's id, as Linux names it ('<pid>/task/<tid>'); elsewhere there is no such link.
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  setPriority(tid, Math.min(19, getPriority(tid) + ${READER_NICENESS}));
} catch {}
let crc32c;
try {
  const native = require(${JSON.stringify(nativeCrc32cPath())}).crc32c;
  if (native(new TextEncoder().encode('123456789'), 0) === 0xe3069283) crc32c = native;
} catch {}
// Bundlers that keep function names wrap them in a helper of this name: here it has nothing to do.
const __name = (target) => target;
const { readWhole, keep } = (${wholeFileReader.toString()})(require('node:fs'), ${JSON.stringify(READER_LIMITS)});
parentPort.on('message', ({ id, files, back }) => {
  if (back !== undefined) for (const buffer of back) keep(buffer);
  const replies = [];
  const transfer = [];
  for (const { path, hash, crc, maxBytes } of files) {
    let data;
    try {
      data = readWhole(path, maxBytes);
    } catch (error) {
      const { message, code, kind, size } = error ?? {};
      replies.push({ error: { message: String(message), code, kind, size } });
      continue;
    }
    const reply = { data };
    if (hash) reply.sha256 = createHash('sha256').update(data).digest('hex');
    if (crc && crc32c !== undefined) reply.crc32c = crc32c(data, 0);
    replies.push(reply);
    transfer.push(data.buffer);
  }
  parentPort.postMessage({ id, files: replies }, transfer);
});
`;

/** The reader thread's source, made when the first thread starts (it looks up the native CRC's path). */
let READER_SOURCE: string | undefined;

/**
 * Reads a whole file and, when `hash` is set, its SHA-256, on a reader thread; the bytes are
 * transferred back, not copied. With `crc`, the thread also computes the bytes' CRC-32C (native,
 * where `@node-rs/crc32` loads), so that a sink framing them need not read them again. Internal.
 *
 * Why threads: `fs.readFile` is four round trips through libuv's pool (open, fstat, read, close),
 * each waiting for the main thread to start the next, and hashing an image on the main thread holds
 * up every other read's next step. A reader thread makes the four calls and the hash back to back
 * and answers once (figures: bench/README.md, case e).
 *
 * On Linux the reader threads run 5 nice levels below the thread that started them (never above
 * 19): a reader woken by a request would otherwise often take the main thread's core, and the main
 * thread, which hands out the next requests and writes the records, waited. Under load from other
 * processes the readers yield to them first.
 *
 * The threads (at most `min(4, os.availableParallelism())`, ~9 MB each) are shared by every image
 * source in the process and started when first needed (~20 ms each), a new one only when those
 * running are all busy and fewer than `threads` run; one that has had nothing to do
 * for 5 s exits, and an idle one never keeps the process alive. Where threads cannot be started
 * (e.g. Node's permission model without `--allow-worker`) files are read on this thread.
 * @param threads - reader threads this read may start, at most (a read for a decode needs one: the
 * decode takes far longer). @default min(4, os.availableParallelism())
 * @param here - a read with neither `hash` nor `crc` is made on this thread by `here` while its reads
 * are fast (see {@link AdaptiveReads}), at once (the promise is settled on return). @default none
 * @throws the file system's error (with `code`, e.g. `ENOENT`) when the file cannot be read; an
 * error without `code` when a reader thread died
 */
export function readImageFile(
  file: string,
  hash: boolean,
  crc = false,
  maxBytes = MAX_READABLE_BYTES,
  threads = MAX_READERS,
  here?: AdaptiveReads,
): Promise<ImageFile> {
  if (here?.here === true && !hash && !crc) {
    return new Promise((resolve) => resolve(here.read(file, maxBytes)));
  }
  if (threadsUnavailable) return readImageFileHere(file, hash, maxBytes);
  pool ??= new ReaderPool();
  try {
    return pool.read(file, hash, crc, maxBytes, threads);
  } catch {
    threadsUnavailable = true;
    return readImageFileHere(file, hash, maxBytes);
  }
}

/** Stops every reader thread; reads not answered yet reject. The next read starts new ones. Internal (tests). */
export async function stopImageReaders(): Promise<void> {
  const stopping = pool?.stop();
  pool = undefined;
  await stopping;
}

let pool: ReaderPool | undefined;
let threadsUnavailable = false;
let readerStarts = 0;

/** Reader threads started so far in this process (a test counts those a run starts). Internal. */
export function readerThreadStarts(): number {
  return readerStarts;
}

/**
 * The reader threads; each request goes to the least busy one, or a new one when all are busy.
 * The requests made while the main thread works through one batch of callbacks (a reply's images,
 * the first pull's reads) go to their thread as one message, after those callbacks (see
 * {@link ReaderThread}): a message costs each side about as much CPU as reading a 100 KB file.
 */
class ReaderPool {
  readonly #readers: ReaderThread[] = [];
  /** Buffers given back since the last request; they go to a thread with the next one. */
  #returned: ArrayBuffer[] = [];
  #flushQueued = false;

  /** Queues a buffer to go back to a reader thread with the next request (no message of its own). */
  giveBack(buffer: ArrayBuffer): void {
    if (buffer.byteLength > 0) this.#returned.push(buffer);
  }

  /** @throws when a thread cannot be started */
  read(file: string, hash: boolean, crc: boolean, maxBytes: number, threads: number): Promise<ImageFile> {
    let chosen: ReaderThread | undefined;
    for (const reader of this.#readers)
      if (chosen === undefined || reader.load < chosen.load) chosen = reader;
    const most = Math.max(1, Math.min(threads, MAX_READERS));
    if (chosen === undefined || (chosen.load > 0 && this.#readers.length < most)) {
      const reader: ReaderThread = new ReaderThread(() => {
        const index = this.#readers.indexOf(reader);
        if (index !== -1) this.#readers.splice(index, 1);
      });
      this.#readers.push(reader);
      readerStarts++;
      chosen = reader;
    }
    const read = chosen.queue({ path: file, hash, crc, maxBytes });
    if (!this.#flushQueued) {
      this.#flushQueued = true;
      // After this turn's promise callbacks, so that the reads they start share a message: a tick
      // queued from a promise callback runs once the microtask queue is empty.
      process.nextTick(() => this.#flush());
    }
    return read;
  }

  /** Sends each thread the reads queued for it, with the buffers given back (to the first thread). */
  #flush(): void {
    this.#flushQueued = false;
    for (const reader of this.#readers) {
      if (!reader.queued) continue;
      const returned = this.#returned;
      if (returned.length > 0) this.#returned = [];
      reader.send(returned.length > 0 ? returned : undefined);
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.#readers].map((reader) => reader.stop()));
  }
}

/** One file a reader thread is asked for. */
interface ReadRequest {
  readonly path: string;
  readonly hash: boolean;
  readonly crc: boolean;
  /** Refuse a file of more bytes than this. */
  readonly maxBytes: number;
}

/** What a reader thread answers for one file of a request. */
interface FileReply {
  readonly data?: Uint8Array;
  readonly sha256?: string;
  readonly crc32c?: number;
  readonly error?: {
    readonly message: string;
    readonly code?: string;
    readonly kind?: string;
    readonly size?: number;
  };
}

interface Reply {
  readonly id: number;
  /** In the order of the request's files. */
  readonly files: readonly FileReply[];
}

/** A queued read and how to settle it. */
interface QueuedRead {
  readonly request: ReadRequest;
  readonly resolve: (file: ImageFile) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * One reader thread, the reads queued for its next request and those it has not answered yet. A
 * request carries every read queued since the last one; the thread reads them in order and answers
 * them together.
 */
class ReaderThread {
  readonly #thread: RequestThread;
  #queue: QueuedRead[] = [];
  /** Files queued or asked for and not answered yet. */
  #load = 0;

  constructor(onGone: () => void) {
    this.#thread = new RequestThread({
      // No inherited flags: the parent's loaders and inspector have nothing to do in a file reader.
      start: () =>
        new Worker((READER_SOURCE ??= readerSource()), {
          eval: true,
          execArgv: [],
          name: 'tfpipe image reader',
        }),
      idleExitMs: IDLE_EXIT_MS,
      exitMessage: (code) => `image reader thread exited (code ${code})`,
      onGone,
    });
  }

  /** Files queued or asked for and not answered yet. */
  get load(): number {
    return this.#load;
  }

  /** Whether reads wait for the next {@link send}. */
  get queued(): boolean {
    return this.#queue.length > 0;
  }

  /** Queues one file for the next request. */
  queue(request: ReadRequest): Promise<ImageFile> {
    this.#load++;
    return new Promise((resolve, reject) => this.#queue.push({ request, resolve, reject }));
  }

  /** Asks for the queued files in one message; `back` (buffers given back) goes with it. */
  send(back: ArrayBuffer[] | undefined): void {
    const reads = this.#queue;
    this.#queue = [];
    const files = reads.map((read) => read.request);
    this.#thread.request<Reply>(back === undefined ? { files } : { files, back }, back).then(
      (reply) => {
        this.#load -= reads.length;
        for (let index = 0; index < reads.length; index++) {
          const read = reads[index]!;
          const file = reply.files[index]!;
          if (file.error === undefined) read.resolve(imageFile(file));
          else read.reject(refusalOf(file.error));
        }
      },
      (error: unknown) => {
        this.#load -= reads.length;
        for (const read of reads) read.reject(error);
      },
    );
  }

  async stop(): Promise<void> {
    const error = new Error('image reader thread exited (code 1)');
    const queued = this.#queue;
    this.#queue = [];
    this.#load -= queued.length;
    for (const read of queued) read.reject(error);
    await this.#thread.stop(error);
  }
}

/** A file a reader thread read; its buffer goes back to the pool that runs when it is given back. */
function imageFile(reply: FileReply): ImageFile {
  const data = reply.data!;
  let given = false;
  // To whichever pool runs then: buffers suit any reader thread (none, once they are stopped).
  const giveBack = (): void => {
    if (given) return;
    given = true;
    pool?.giveBack(data.buffer as ArrayBuffer);
  };
  return { data, sha256: reply.sha256, crc32c: reply.crc32c, giveBack };
}

/** A reader thread's refusal as an error with its `code`, `kind` and `size`. */
function refusalOf(refusal: NonNullable<FileReply['error']>): ReadRefusal {
  const { message, code, kind, size } = refusal;
  return Object.assign(
    new Error(message),
    code === undefined ? {} : { code },
    kind === undefined ? {} : { kind },
    size === undefined ? {} : { size },
  );
}

import { createInflateRaw } from 'node:zlib';
import { TfpipeError } from '@tfpipe/core';
import { atGzipMember, gzipCheck, readGzipHeader, readZlibHeader, zlibCheck } from './compressed-framing.js';
import { markDamage } from './damage.js';
import { InputCursor } from './input-cursor.js';

/** How many decompressed chunks may wait for the reader before zlib is paused. */
const QUEUED_CHUNKS = 4;

/**
 * A gzip or zlib decompressor over `node:zlib` that reads as TensorFlow's `ZlibInputStream` does and
 * loses nothing before a damaged spot. It parses each gzip member's header and trailer itself and
 * inflates the body raw, so it knows exactly where every member ends: a gzip file of several members
 * reads as one stream (TensorFlow resets after each member), and data after the last member (`junk`,
 * zero padding) is a `DECOMPRESS` error at its exact file offset only after every byte before it has
 * been handed over. (`createGunzip` dropped the last decompressed chunk when trailing bytes made it
 * fail, and ignored trailing zeros silently.) A zlib stream is one stream; bytes after it are reported
 * the same way. On any failure it reads on to the end of the input, counting, so the lost byte range
 * is exact. zlib is paused while its output waits, so memory stays bounded whatever the input
 * inflates to.
 */
export function nodeDecompressor(format: 'gzip' | 'deflate'): ReadableWritablePair<Uint8Array, Uint8Array> {
  const pipe = new TransformStream<Uint8Array, Uint8Array>();
  const input = new InputCursor(pipe.readable.getReader());
  const output = inflateMembers(input, format === 'gzip' ? 'gzip' : 'zlib');
  const readable = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await output.next();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel(reason) {
        await output.return(undefined);
        await input.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { readable, writable: pipe.writable };
}

async function* inflateMembers(
  input: InputCursor,
  format: 'gzip' | 'zlib',
): AsyncGenerator<Uint8Array, void> {
  let delivered = 0;
  const fail = async (at: number, reason: string): Promise<never> => {
    const end = await input.drain();
    const lost = end === at ? 'the input ends there' : `${end - at} bytes from there to the end lost`;
    const error = new TfpipeError('DECOMPRESS', `cannot decompress ${format} data`, {
      stage: 'decompressTfrecord',
      reason: `${reason} (${lost}; ${delivered} bytes decompressed before, all handed on)`,
      position: { byteOffset: at },
    });
    throw markDamage(error, { start: at, end });
  };
  for (let member = 0; ; member++) {
    if (member > 0) {
      if (!(await input.fill(1))) return;
      if (format === 'zlib' || !(await atGzipMember(input)))
        return fail(input.offset, `trailing data after the end of the ${format} stream`);
    }
    const start = input.offset;
    const headerProblem = format === 'gzip' ? await readGzipHeader(input) : await readZlibHeader(input);
    if (headerProblem !== undefined) return fail(start, headerProblem);
    const check = format === 'gzip' ? gzipCheck() : zlibCheck();
    for await (const chunk of inflateBody(input)) {
      if (!(chunk instanceof Uint8Array)) return fail(chunk.at, chunk.reason);
      check.update(chunk);
      delivered += chunk.length;
      yield chunk;
    }
    const trailerAt = input.offset;
    const trailerProblem = await check.verify(input);
    if (trailerProblem !== undefined) return fail(trailerAt, trailerProblem);
  }
}

/** Why a deflate body could not be inflated, and the file offset zlib had reached. */
interface BodyFailure {
  readonly reason: string;
  readonly at: number;
}

/**
 * Inflates one raw deflate body from the cursor: yields its bytes, then leaves the cursor just past
 * it (the input zlib did not consume is put back). When the body is damaged or cut short it yields a
 * {@link BodyFailure} last; the bytes zlib decoded in its failing call are lost, as in TensorFlow.
 */
async function* inflateBody(input: InputCursor): AsyncGenerator<Uint8Array | BodyFailure, void> {
  // 64 KiB of output per zlib call: fewer, larger chunks than the 16 KiB default.
  const inflater = createInflateRaw({ chunkSize: 64 * 1024 });
  const bodyStart = input.offset;
  const queue: Uint8Array[] = [];
  let failure: Error | undefined;
  let ended = false;
  let writing = false;
  let finishing = false;
  let last: Uint8Array = new Uint8Array(0);
  let lastStart = bodyStart;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  inflater.on('data', (chunk: Buffer) => {
    queue.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (queue.length >= QUEUED_CHUNKS) inflater.pause();
    notify();
  });
  inflater.on('error', (error) => {
    failure = error;
    notify();
  });
  inflater.on('end', () => {
    ended = true;
    notify();
  });
  try {
    for (;;) {
      while (queue.length > 0) {
        const chunk = queue.shift()!;
        if (queue.length < QUEUED_CHUNKS) inflater.resume();
        yield chunk;
      }
      if (failure !== undefined) {
        // bytesWritten counts the input of zlib's successful calls: the damage lies at or after it.
        yield { reason: failure.message, at: bodyStart + inflater.bytesWritten };
        return;
      }
      if (ended) {
        // zlib stopped at the end of the deflate data; its input only ever came from the last chunk.
        input.unshift(last.subarray(bodyStart + inflater.bytesWritten - lastStart));
        return;
      }
      if (!writing && !finishing) {
        const chunk = await input.take();
        if (chunk === undefined) {
          finishing = true;
          inflater.end();
        } else {
          last = chunk;
          lastStart = input.offset - chunk.length;
          writing = true;
          inflater.write(chunk, () => {
            writing = false;
            notify();
          });
        }
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    inflater.destroy();
  }
}

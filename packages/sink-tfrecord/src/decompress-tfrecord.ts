import { TfpipeError } from '@tfpipe/core';
import { HEADER_BYTES } from './frame-record.js';
import { detectCompression } from './detect-compression.js';
import type { TfrecordCompression } from './tf-record.js';

/** Options of {@link decompressTfrecord}. */
export interface DecompressTfrecordOptions {
  /**
   * The file's compression; `'auto'` detects it from the first bytes (see `detectCompression`).
   * @default 'auto'
   */
  readonly compression?: TfrecordCompression | 'auto';
  /** The file name used in error positions. @default 'stream' */
  readonly file?: string;
  /** The stage name used in errors. @default 'decompressTfrecord' */
  readonly stage?: string;
  /** Called once the compression is known (detected or given). */
  readonly onCompression?: (compression: TfrecordCompression) => void;
  /**
   * Makes the decompressor for `'gzip'` or `'deflate'` (zlib) data.
   * @default the web-standard `DecompressionStream`; the Node entry's `tfrecordSource` passes one over
   * `node:zlib` that keeps every byte decoded before a damaged spot.
   */
  readonly decompressor?: (format: 'gzip' | 'deflate') => ReadableWritablePair<Uint8Array, Uint8Array>;
}

/**
 * The decompressed bytes of a TFRecord byte stream, gzip and zlib detected from the first bytes
 * (or as given). Uses the web-standard `DecompressionStream`, so it runs in browsers and in Node 20.
 * Pull-based: it reads the source only as fast as its consumer reads, so a decompression bomb cannot
 * flood memory. A damaged compressed stream errors with `DECOMPRESS` at the decompressed byte offset
 * reached.
 */
export function decompressTfrecord(
  source: ReadableStream<Uint8Array>,
  options: DecompressTfrecordOptions = {},
): ReadableStream<Uint8Array> {
  const file = options.file ?? 'stream';
  const stage = options.stage ?? 'decompressTfrecord';
  let inner: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let compression: TfrecordCompression = 'none';
  let delivered = 0;
  let sourceReader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  async function open(): Promise<ReadableStreamDefaultReader<Uint8Array>> {
    sourceReader = source.getReader();
    const reader = sourceReader;
    const head: Uint8Array[] = [];
    let headBytes = 0;
    let ended = false;
    let detected =
      options.compression === 'auto' || options.compression === undefined ? undefined : options.compression;
    while (detected === undefined) {
      const { done, value } = await reader.read();
      if (done) ended = true;
      else if (value.length > 0) {
        head.push(value);
        headBytes += value.length;
      }
      detected = detectCompression(concat(head, Math.min(headBytes, HEADER_BYTES)), ended);
    }
    compression = detected;
    options.onCompression?.(compression);
    const replay = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const next = head.shift();
          if (next !== undefined) return controller.enqueue(next);
          if (ended) return controller.close();
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    if (compression === 'none') return replay.getReader();
    const format = compression === 'gzip' ? 'gzip' : 'deflate';
    // DOM typings declare DecompressionStream's writable side as BufferSource; a Uint8Array is one.
    const decompressor =
      options.decompressor?.(format) ??
      (new DecompressionStream(format) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
    return replay.pipeThrough(decompressor).getReader();
  }

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        inner ??= await open();
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await inner.read();
        } catch (error) {
          if (TfpipeError.is(error) || compression === 'none') throw error;
          throw new TfpipeError('DECOMPRESS', `cannot decompress ${compression} data`, {
            stage,
            cause: error,
            reason: error instanceof Error ? error.message : String(error),
            position: { file, byteOffset: delivered },
          });
        }
        if (result.done) return controller.close();
        delivered += result.value.length;
        controller.enqueue(result.value);
      },
      async cancel(reason) {
        if (inner !== undefined) await inner.cancel(reason);
        else if (sourceReader !== undefined) await sourceReader.cancel(reason);
        else await source.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1 || length === 0) return (chunks[0] ?? new Uint8Array(0)).subarray(0, length);
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    if (offset >= length) break;
    const part = chunk.subarray(0, length - offset);
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

import { TfpipeError } from '@tfpipe/core';
import { RecordErrorPolicy } from '@tfpipe/core/plugin';
import { TfrecordReader, type Crc32cFunction, type FrameWalker } from '@tfpipe/sink-tfrecord/web';
import type { LostRange } from './worker-protocol.js';

/**
 * A frame longer than this (payload and framing, in bytes) is left to the reader: the walk would
 * copy its first bytes again with every chunk until it is whole. @default 16 MiB
 */
export const WALKED_FRAME_BYTES = 16 * 1024 * 1024;

/** What {@link verifyingPass} reads with and tells. */
export interface VerifyingPassSettings {
  /** The file's name, for error positions. */
  readonly file: string;
  /** The stage named in errors. */
  readonly stage: string;
  /** The largest payload accepted, in bytes (the CLI's limit). */
  readonly maxRecordBytes: number;
  /** The CRC-32C of the reader, when the walker is absent or has handed over. */
  readonly crc: Crc32cFunction;
  /** Verifies the clean frames of each chunk in one call; `undefined` reads with the reader alone. */
  readonly walker: FrameWalker | undefined;
  /** Whether {@link record} gets the payload (else `undefined`, and no view is made); {@link walked} always has it. */
  readonly payloads: boolean;
  /** Each record whose CRCs hold that the reader found, in order; the payload is valid only during the call. */
  record(recordIndex: number, byteOffset: number, length: number, payload: Uint8Array | undefined): void;
  /**
   * The records the walker verified in one chunk, in order: record `recordIndex + i` starts at byte
   * `frames[2 * i]` of `bytes` (and of the file at `byteOffset` plus that) and holds
   * `frames[2 * i + 1]` payload bytes. `bytes` and `frames` are valid only during the call.
   */
  walked(bytes: Uint8Array, frames: Int32Array, count: number, recordIndex: number, byteOffset: number): void;
  /** Each problem: a `TfpipeError` with the record index and byte offset in the (decompressed) file. */
  problem(error: unknown): void;
  /** After each chunk: progress, and a chance for the page's requests. */
  afterChunk(): Promise<void>;
}

/**
 * Verifies both CRCs of every record of `bytes` (the decompressed file) and lists each problem and
 * lost byte range, as `TfrecordReader` does. While the file is clean the walker verifies a whole
 * chunk per call; from the first frame it cannot verify (damage, a frame over
 * {@link WALKED_FRAME_BYTES}, the end of a truncated file, a failing read) the reader takes the rest
 * of the stream, its positions shifted by the bytes and records the walker verified.
 * @returns the byte ranges lost.
 */
export async function verifyingPass(
  bytes: ReadableStream<Uint8Array>,
  settings: VerifyingPassSettings,
): Promise<LostRange[]> {
  const source = bytes.getReader();
  let head = new Uint8Array(0);
  let byteOffset = 0;
  let records = 0;
  const walker = settings.walker;
  if (walker !== undefined) {
    for (;;) {
      let chunk: Uint8Array;
      try {
        const { done, value } = await source.read();
        if (done) break;
        chunk = value;
      } catch {
        // The reader meets the same error on its next read and reports it as it always does.
        break;
      }
      const walk = walker.walk(head, chunk, settings.maxRecordBytes);
      const walked = walk.bytes;
      if (walk.count > 0) settings.walked(walked, walk.frames, walk.count, records, byteOffset);
      records += walk.count;
      byteOffset += walk.stop;
      head = walked.slice(walk.stop);
      if (walk.failed || pendingFrameBytes(head) > WALKED_FRAME_BYTES) break;
      await settings.afterChunk();
    }
  }
  return readRest(head, source, byteOffset, records, settings);
}

/** The bytes the frame starting `head` claims (its unverified length field), 0 while unknown. */
function pendingFrameBytes(head: Uint8Array): number {
  if (head.length < 8) return 0;
  const view = new DataView(head.buffer, head.byteOffset, 8);
  return view.getUint32(4, true) > 0 ? Infinity : view.getUint32(0, true) + 16;
}

/** The reader over `head` and what is left of `source`, its positions shifted to the file's. */
async function readRest(
  head: Uint8Array,
  source: ReadableStreamDefaultReader<Uint8Array>,
  byteOffset: number,
  records: number,
  settings: VerifyingPassSettings,
): Promise<LostRange[]> {
  const rest = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (head.length > 0) controller.enqueue(head);
      },
      async pull(controller) {
        const { done, value } = await source.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => source.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  const shift = (error: unknown): unknown =>
    // A DECOMPRESS error's offset is the decompressor's, counted from the start already.
    TfpipeError.is(error) && error.code !== 'DECOMPRESS' ? shifted(error, byteOffset, records) : error;
  const reader = new TfrecordReader(rest, {
    file: settings.file,
    stage: settings.stage,
    compression: 'none',
    maxRecordBytes: settings.maxRecordBytes,
    policy: new RecordErrorPolicy({ onError: 'skip', onSkip: (error) => settings.problem(shift(error)) }),
    crc: settings.crc,
    emit: false,
    check: (data, place) => {
      const payload = settings.payloads ? data : undefined;
      settings.record(place.recordIndex + records, place.byteOffset + byteOffset, data.length, payload);
      return true;
    },
  });
  try {
    while ((await reader.read()) !== undefined) await settings.afterChunk();
  } catch (error) {
    settings.problem(shift(error));
  }
  return reader.unframer.lost.map((region): LostRange => ({
    start: region.start + byteOffset,
    end: region.end + byteOffset,
    reason: region.reason,
  }));
}

/** `error` with its record index and byte offset counted from the start of the file. */
function shifted(error: TfpipeError, byteOffset: number, records: number): TfpipeError {
  if (byteOffset === 0 && records === 0) return error;
  const { position } = error;
  return new TfpipeError(error.code, error.detail, {
    position: {
      ...position,
      ...(position.byteOffset === undefined ? {} : { byteOffset: position.byteOffset + byteOffset }),
      ...(position.recordIndex === undefined ? {} : { recordIndex: position.recordIndex + records }),
    },
    fatal: error.fatal,
    cause: error.cause,
    ...(error.stage === undefined ? {} : { stage: error.stage }),
    ...(error.reason === undefined ? {} : { reason: error.reason }),
  });
}

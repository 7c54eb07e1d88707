import type { TfpipeErrorCode } from '@tfpipe/core';

/** One record read from a TFRecord file: its payload and where it was found. */
export interface TfRecord {
  /** The payload bytes (a serialized Example or SequenceExample, usually). The record owns them. */
  readonly data: Uint8Array;
  /** The file (or stream name) it came from. */
  readonly file: string;
  /** 0-based index of the record in its file. A region lost to corruption counts as one record. */
  readonly recordIndex: number;
  /** Offset of the record's first framing byte in the (decompressed) file, in bytes. */
  readonly byteOffset: number;
}

/** A byte range of a file that `onError: 'skip'` gave up on, and why. */
export interface LostRegion {
  /** The file (or stream name). */
  readonly file: string;
  /**
   * Offset of the first lost byte in the (decompressed) file. For a `DECOMPRESS` region read by the
   * Node `tfrecordSource`: the offset in the file as stored (compressed), since nothing after the
   * damage could be decompressed.
   */
  readonly start: number;
  /** Offset just past the last lost byte. */
  readonly end: number;
  /** `end - start`. */
  readonly bytes: number;
  /** The error that began the region: `RECORD_CRC`, `RECORD_TRUNCATED`, `RECORD_TOO_LARGE` or `DECOMPRESS`. */
  readonly code: TfpipeErrorCode;
  /** Why: `length CRC mismatch`, `data CRC mismatch`, … */
  readonly reason: string;
  /**
   * Records lost, when known exactly (a frame whose length CRC held: 1). `undefined` when the reader had
   * to scan past bytes whose framing it could not trust: at least one record was lost there.
   */
  readonly records: number | undefined;
}

/** Which compression a TFRecord file uses. TensorFlow's GZIP and ZLIB compress the whole file stream. */
export type TfrecordCompression = 'none' | 'gzip' | 'zlib';

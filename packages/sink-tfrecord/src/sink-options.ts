import { TfpipeError, type PayloadType, type RecordErrorOptions } from '@tfpipe/core';
import type { DeferredOutput } from '@tfpipe/core/plugin';
import { checkCompression } from './record-options.js';
import type { TfrecordCompression } from './tf-record.js';

/** Options of `tfrecordSink`. Give `path` (one file) or `directory` (+ `prefix`, sharded). */
export interface TfrecordSinkOptions extends RecordErrorOptions {
  /** One output file. Excludes `directory`, `prefix` and the sharding options. */
  readonly path?: string;
  /** The directory for sharded output (created if missing). */
  readonly directory?: string;
  /** Shard name prefix: shards are `PREFIX-00000-of-00008SUFFIX`. @default 'data' */
  readonly prefix?: string;
  /** Start a new shard after this many records. */
  readonly maxRecords?: number;
  /**
   * Start a new shard before a record would take the shard past this many framed (uncompressed) bytes.
   * A record larger than this gets a shard of its own.
   */
  readonly maxBytes?: number;
  /** Write exactly this many shards, records dealt round-robin (record i goes to shard i mod N). */
  readonly shards?: number;
  /**
   * Shard file name suffix.
   * @default '.tfrecord', '.tfrecord.gz' with gzip, '.tfrecord.zz' with zlib
   */
  readonly suffix?: string;
  /**
   * Compress the whole file stream as TensorFlow's `GZIP` / `ZLIB` options do. A `path` (or `suffix`)
   * ending in `.gz` means gzip and one ending in `.zz` zlib; another value for such a name is refused.
   * @default from the name's `.gz` / `.zz` ending, else 'none'
   */
  readonly compression?: TfrecordCompression;
  /** zlib compression level, 0 (store) to 9 (smallest). @default 6 */
  readonly level?: number;
  /**
   * Replace the previous output of the same name or prefix: the file (its `.idx`, its manifest), or
   * the shard set of the prefix (the files its manifest lists, and files named exactly
   * `PREFIX-NNNNN-of-NNNNN.tfrecord[.gz|.zz][.idx]`). Never other files, other prefixes or
   * directories. The old files go only after the new ones are all in place. @default false
   */
  readonly overwrite?: boolean;
  /** Write `<shard>.idx` beside each shard: DALI `"<offset> <size>\n"` lines. Uncompressed only. @default false */
  readonly index?: boolean;
  /** Write `PREFIX.manifest.json` (or `PATH.manifest.json`) describing shards, checksums and features. @default false */
  readonly manifest?: boolean;
  /**
   * What the records are, recorded in the manifest and checked against object inputs.
   * @default the type of the first object written, else 'Example'
   */
  readonly payloadType?: PayloadType;
  /** Size of the write buffer per file, in bytes (two alternate); shared out when `shards` are open at once. @default 4194304 (4 MiB) */
  readonly bufferBytes?: number;
  /**
   * `fdatasync` every file before it is renamed to its final name, so a crash never leaves a torn
   * final file; also in the background every 32 MiB written, so that last sync waits only for the tail.
   * @default true
   */
  readonly fsync?: boolean;
  /**
   * Compute the records' CRCs on a second thread (one per process, shared by every sink, started on
   * first use and gone when idle) while this thread encodes the next records; the write buffers are
   * then `SharedArrayBuffer`s, and for an uncompressed file without a manifest hash the thread also
   * writes them, in order. Until the thread is ready, and where threads cannot start, the CRCs are
   * computed on this thread. The bytes are the same either way.
   * @default true
   */
  readonly crcThread?: boolean;
  /**
   * Rename nothing when the stream closes: hand the finished output (under temporary names) to this
   * callback, whose caller renames it together with the rest of a run (core's `DeferredOutput`).
   * @default undefined (rename on close)
   */
  readonly deferOutput?: (output: DeferredOutput) => void;
}

/** The sharding mode, resolved. */
export type Sharding =
  | { readonly mode: 'single'; readonly path: string }
  | { readonly mode: 'rolling'; readonly maxRecords: number; readonly maxBytes: number }
  | { readonly mode: 'fixed'; readonly shards: number };

/** Options after checking. */
export interface ResolvedSinkOptions {
  readonly directory: string;
  readonly prefix: string;
  readonly sharding: Sharding;
  readonly suffix: string;
  readonly compression: TfrecordCompression;
  readonly level: number;
  readonly overwrite: boolean;
  readonly index: boolean;
  readonly manifest: boolean;
  readonly payloadType: PayloadType | undefined;
  readonly bufferBytes: number;
  readonly fsync: boolean;
  readonly crcThread: boolean;
  readonly deferOutput: ((output: DeferredOutput) => void) | undefined;
}

const STAGE = 'tfrecordSink';
const SUFFIXES: Record<TfrecordCompression, string> = {
  none: '.tfrecord',
  gzip: '.tfrecord.gz',
  zlib: '.tfrecord.zz',
};

function invalid(message: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', message, { stage: STAGE, fatal: true });
}

function positiveInteger(name: string, value: number | undefined, minimum = 1): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < minimum) {
    throw invalid(`${name} must be an integer of at least ${minimum}, got ${String(value)}`);
  }
  return value;
}

/** The compression a file name ending in `.gz` or `.zz` says, else undefined. */
export function compressionOfName(name: string): TfrecordCompression | undefined {
  if (name.endsWith('.gz')) return 'gzip';
  if (name.endsWith('.zz')) return 'zlib';
  return undefined;
}

/** `compression`, or the one the output name says; refuses a name that says another. */
function resolveCompression(options: TfrecordSinkOptions): TfrecordCompression {
  const given = checkCompression(options.compression, ['none', 'gzip', 'zlib'] as const, undefined, STAGE);
  const name = typeof options.path === 'string' ? options.path : options.suffix;
  const named = typeof name === 'string' ? compressionOfName(name) : undefined;
  if (named !== undefined && given !== undefined && given !== named) {
    const which = typeof options.path === 'string' ? 'path' : 'suffix';
    throw invalid(
      `compression '${given}' contradicts the ${which} ${JSON.stringify(name)}, whose ending says ${named}`,
    );
  }
  return given ?? named ?? 'none';
}

/** Checks the options as the factory is called. */
export function resolveSinkOptions(
  options: TfrecordSinkOptions,
  dirname: (path: string) => string,
  basename: (path: string) => string,
): ResolvedSinkOptions {
  if (typeof options !== 'object' || options === null) throw invalid('tfrecordSink needs an options object');
  const compression = resolveCompression(options);
  const level = options.level ?? 6;
  if (!Number.isInteger(level) || level < 0 || level > 9)
    throw invalid(`level must be an integer from 0 to 9, got ${String(level)}`);
  if (options.index === true && compression !== 'none') {
    throw invalid(
      `index needs uncompressed output: byte offsets mean nothing inside a ${compression} stream`,
    );
  }
  if (
    options.payloadType !== undefined &&
    options.payloadType !== 'Example' &&
    options.payloadType !== 'SequenceExample'
  ) {
    throw invalid(
      `payloadType must be 'Example' or 'SequenceExample', got ${JSON.stringify(options.payloadType)}`,
    );
  }
  if (options.crcThread !== undefined && typeof options.crcThread !== 'boolean')
    throw invalid(`crcThread must be true or false, got ${JSON.stringify(options.crcThread)}`);
  const maxRecords = positiveInteger('maxRecords', options.maxRecords);
  const maxBytes = positiveInteger('maxBytes', options.maxBytes);
  const shards = positiveInteger('shards', options.shards);
  const bufferBytes = positiveInteger('bufferBytes', options.bufferBytes, 64 * 1024) ?? 4 * 1024 * 1024;
  const suffix = options.suffix ?? SUFFIXES[compression];
  if (typeof suffix !== 'string' || suffix.includes('/'))
    throw invalid(`suffix must be a file name suffix, got ${JSON.stringify(suffix)}`);
  let sharding: Sharding;
  let directory: string;
  let prefix: string;
  if (options.path !== undefined) {
    if (typeof options.path !== 'string' || options.path === '')
      throw invalid('path must be a non-empty string');
    if (options.directory !== undefined || options.prefix !== undefined)
      throw invalid('give either path or directory + prefix, not both');
    if (maxRecords !== undefined || maxBytes !== undefined || shards !== undefined) {
      throw invalid('maxRecords, maxBytes and shards need directory + prefix (sharded output), not path');
    }
    if (options.suffix !== undefined)
      throw invalid('suffix applies to sharded output; path is the whole file name');
    directory = dirname(options.path);
    prefix = basename(options.path);
    sharding = { mode: 'single', path: options.path };
  } else {
    if (typeof options.directory !== 'string' || options.directory === '')
      throw invalid('give path (one file) or directory (sharded output)');
    directory = options.directory;
    prefix = options.prefix ?? 'data';
    if (typeof prefix !== 'string' || prefix === '' || prefix.includes('/') || prefix.startsWith('.')) {
      throw invalid(
        `prefix must be a plain file name start (no '/', not hidden), got ${JSON.stringify(prefix)}`,
      );
    }
    if (shards !== undefined && (maxRecords !== undefined || maxBytes !== undefined)) {
      throw invalid('shards (a fixed count) excludes maxRecords and maxBytes');
    }
    sharding =
      shards !== undefined
        ? { mode: 'fixed', shards }
        : { mode: 'rolling', maxRecords: maxRecords ?? Infinity, maxBytes: maxBytes ?? Infinity };
  }
  return {
    directory,
    prefix,
    sharding,
    suffix,
    compression,
    level,
    overwrite: options.overwrite ?? false,
    index: options.index ?? false,
    manifest: options.manifest ?? false,
    payloadType: options.payloadType,
    bufferBytes,
    fsync: options.fsync ?? true,
    crcThread: options.crcThread ?? true,
    deferOutput: options.deferOutput,
  };
}

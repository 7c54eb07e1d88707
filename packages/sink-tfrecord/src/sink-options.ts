import type { PayloadType, RecordErrorOptions } from '@tfpipe/core';
import type { DeferredOutput } from '@tfpipe/core/plugin';
import { checkSinkOptions, compressionOfName } from './sink-options-schema.js';
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

const SUFFIXES: Record<TfrecordCompression, string> = {
  none: '.tfrecord',
  gzip: '.tfrecord.gz',
  zlib: '.tfrecord.zz',
};

/**
 * Checks the options as the factory is called (`checkSinkOptions`: the option schema is the one
 * place options are checked) and fills in the defaults.
 * @throws TfpipeError `INVALID_OPTION` naming the option
 */
export function resolveSinkOptions(
  options: TfrecordSinkOptions,
  dirname: (path: string) => string,
  basename: (path: string) => string,
): ResolvedSinkOptions {
  checkSinkOptions(options);
  const named = compressionOfName(options.path ?? options.suffix ?? '');
  const compression = options.compression ?? named ?? 'none';
  const { maxRecords, maxBytes, shards } = options;
  let sharding: Sharding;
  let directory: string;
  let prefix: string;
  if (options.path !== undefined) {
    directory = dirname(options.path);
    prefix = basename(options.path);
    sharding = { mode: 'single', path: options.path };
  } else {
    directory = options.directory!;
    prefix = options.prefix ?? 'data';
    sharding =
      shards !== undefined
        ? { mode: 'fixed', shards }
        : { mode: 'rolling', maxRecords: maxRecords ?? Infinity, maxBytes: maxBytes ?? Infinity };
  }
  return {
    directory,
    prefix,
    sharding,
    suffix: options.suffix ?? SUFFIXES[compression],
    compression,
    level: options.level ?? 6,
    overwrite: options.overwrite ?? false,
    index: options.index ?? false,
    manifest: options.manifest ?? false,
    payloadType: options.payloadType,
    bufferBytes: options.bufferBytes ?? 4 * 1024 * 1024,
    fsync: options.fsync ?? true,
    crcThread: options.crcThread ?? true,
    deferOutput: options.deferOutput,
  };
}

import { RecordErrorPolicy, withPosition } from '@tfpipe/core/plugin';
import {
  TfpipeError,
  positionOf,
  type DecodeOptions,
  type Example,
  type PayloadType,
  type SequenceExample,
} from '@tfpipe/core';
import { expandTfrecordPaths } from './expand-tfrecord-paths.js';
import { iterate } from './iterate-stream.js';
import { readManifest } from './manifest.js';
import { payloadDecoder, type RecordPlace } from './payload-check.js';
import type { LostRegion } from './tf-record.js';
import { tfrecordBatches, tfrecordSource, type TfrecordSourceOptions } from './tfrecord-source.js';

/** Options of {@link readExamples}, {@link countRecords} and {@link verifyTfrecord}: the source's, without `paths`. */
export type ReadTfrecordOptions = Omit<TfrecordSourceOptions, 'paths'>;

/** Options of {@link readExamples}. */
export interface ReadExamplesOptions extends ReadTfrecordOptions, DecodeOptions {
  /**
   * How to decode the payloads. `'auto'` takes the manifest's payload type (see `readManifest`), else
   * Example. Left unset, it decodes Examples, and a manifest that says SequenceExample is an
   * `INVALID_OPTION` error rather than a silent misreading (the bytes of one parse as the other).
   * @default 'Example'
   */
  readonly payloadType?: PayloadType | 'auto';
}

const STAGE = 'readExamples';

/** The decoded Examples (or SequenceExamples) of TFRecord files, each carrying its position. */
export function readExamples(
  paths: string | readonly string[],
  options: ReadExamplesOptions & { readonly payloadType: 'SequenceExample' },
): AsyncIterable<SequenceExample>;
export function readExamples(
  paths: string | readonly string[],
  options?: ReadExamplesOptions & { readonly payloadType?: 'Example' },
): AsyncIterable<Example>;
export function readExamples(
  paths: string | readonly string[],
  options?: ReadExamplesOptions,
): AsyncIterable<Example | SequenceExample>;
export async function* readExamples(
  paths: string | readonly string[],
  options: ReadExamplesOptions = {},
): AsyncIterable<Example | SequenceExample> {
  const files = await expandTfrecordPaths(paths, STAGE);
  const requested = options.payloadType ?? 'Example';
  const manifest = files[0] === undefined ? undefined : await readManifest(files[0]);
  if (options.payloadType === undefined && manifest?.payloadType === 'SequenceExample') {
    throw new TfpipeError(
      'INVALID_OPTION',
      "the manifest says these records are SequenceExamples: pass payloadType 'SequenceExample' or 'auto'",
      { stage: STAGE, fatal: true, position: { file: files[0]! } },
    );
  }
  const payloadType: PayloadType = requested === 'auto' ? (manifest?.payloadType ?? 'Example') : requested;
  const decode = payloadDecoder(
    payloadType,
    STAGE,
    options.maxDecodedBytes === undefined ? {} : { maxDecodedBytes: options.maxDecodedBytes },
  );
  const policy = new RecordErrorPolicy(options);
  const { payloadType: _payloadType, maxDecodedBytes: _maxDecodedBytes, ...readOptions } = options;
  for await (const record of iterate(tfrecordSource({ ...readOptions, paths: files }))) {
    let value: Example | SequenceExample;
    try {
      value = decode(record.data, record);
    } catch (error) {
      policy.handle(error);
      continue;
    }
    yield withPosition(value, positionOf(record) ?? {});
  }
}

/** The number of records in TFRecord files, every CRC verified. */
export async function countRecords(
  paths: string | readonly string[],
  options: ReadTfrecordOptions = {},
): Promise<number> {
  // Verify and count only: a record object and a stream read per record made tiny records slow.
  const batches = tfrecordBatches({ ...options, paths }, false);
  await batches.drain();
  return batches.report().records ?? 0;
}

/** What {@link verifyTfrecord} found. */
export interface VerifyResult {
  /** The files read. */
  readonly files: readonly string[];
  /** Records that verified (their framing, and their payload when parsed). */
  readonly records: number;
  /** Bytes read from disk. */
  readonly bytes: number;
  /** True when nothing was wrong. */
  readonly ok: boolean;
  /** The problems found (the first 100; `problems` counts them all). */
  readonly errors: readonly TfpipeError[];
  /** Every problem, counted. */
  readonly problems: number;
  /** The byte ranges lost to them. */
  readonly lost: readonly LostRegion[];
  /** Bytes lost in all. */
  readonly lostBytes: number;
}

/** Options of {@link verifyTfrecord}. */
export interface VerifyTfrecordOptions extends Omit<ReadTfrecordOptions, 'onError'> {
  /**
   * Also parse every payload as this message: a record whose CRCs hold but whose payload is not one
   * is a problem (`PROTO_DECODE`, `malformed Example at byte N (record 3) of FILE: … at payload byte
   * K`). `'auto'` takes the manifest's payload type, else Example; `'none'` checks the framing only.
   * @default 'none'
   */
  readonly payloadType?: PayloadType | 'auto' | 'none';
}

/**
 * Reads TFRecord files to the end, verifying every record (and, with `payloadType`, parsing every
 * payload), and lists every problem instead of stopping at the first (it reads with
 * `onError: 'skip'` and resynchronises). File-level failures (missing file, I/O) still throw.
 */
export async function verifyTfrecord(
  paths: string | readonly string[],
  options: VerifyTfrecordOptions = {},
): Promise<VerifyResult> {
  const files = await expandTfrecordPaths(paths, 'verifyTfrecord');
  const { payloadType: requested = 'none', ...readOptions } = options;
  const payloadType =
    requested !== 'auto'
      ? requested
      : files[0] === undefined
        ? 'Example'
        : ((await readManifest(files[0]))?.payloadType ?? 'Example');
  const decode = payloadType === 'none' ? undefined : payloadDecoder(payloadType, 'verifyTfrecord');
  const check =
    decode === undefined
      ? undefined
      : (policy: RecordErrorPolicy) => (data: Uint8Array, place: RecordPlace) => {
          try {
            decode(data, place);
            return true;
          } catch (error) {
            policy.handle(error);
            return false;
          }
        };
  const batches = tfrecordBatches({ ...readOptions, paths: files, onError: 'skip' }, false, check);
  await batches.drain();
  const report = batches.report();
  const details = report.details as { lost: LostRegion[]; lostBytes: number };
  return {
    files,
    records: report.records ?? 0,
    bytes: report.bytes ?? 0,
    ok: (report.skipped ?? 0) === 0,
    errors: report.skippedErrors ?? [],
    problems: report.skipped ?? 0,
    lost: details.lost,
    lostBytes: details.lostBytes,
  };
}

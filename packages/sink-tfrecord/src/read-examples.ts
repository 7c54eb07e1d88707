import {
  RecordErrorPolicy,
  TfpipeError,
  positionOf,
  withPosition,
  type Example,
  type PayloadType,
  type SequenceExample,
} from '@tfpipe/core';
import { coreCodec } from './core-codec.js';
import { expandPaths } from './expand-paths.js';
import { readManifest } from './manifest.js';
import type { LostRegion } from './tf-record.js';
import { tfrecordBatches, tfrecordSource, type TfrecordSourceOptions } from './tfrecord-source.js';

/** Options of {@link readExamples}, {@link countRecords} and {@link verifyTfrecord}: the source's, without `paths`. */
export type ReadTfrecordOptions = Omit<TfrecordSourceOptions, 'paths'>;

/** Options of {@link readExamples}. */
export interface ReadExamplesOptions extends ReadTfrecordOptions {
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
  const files = await expandPaths(paths, STAGE);
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
  const codec = coreCodec(STAGE);
  const decode = (bytes: Uint8Array): Example | SequenceExample =>
    payloadType === 'SequenceExample' ? codec.decodeSequenceExample(bytes) : codec.decodeExample(bytes);
  const policy = new RecordErrorPolicy(options);
  for await (const record of iterate(tfrecordSource({ ...options, paths: files }))) {
    let value: Example | SequenceExample;
    try {
      value = decode(record.data);
    } catch (error) {
      const position = positionOf(record) ?? {};
      policy.handle(
        TfpipeError.is(error)
          ? error.withPosition(position)
          : new TfpipeError('PROTO_DECODE', `cannot decode ${payloadType}`, {
              stage: STAGE,
              cause: error,
              position,
            }),
      );
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
  /** Records that verified. */
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

/**
 * Reads TFRecord files to the end, verifying every record, and lists every problem instead of stopping
 * at the first (it reads with `onError: 'skip'` and resynchronises). File-level failures (missing file,
 * I/O) still throw.
 */
export async function verifyTfrecord(
  paths: string | readonly string[],
  options: Omit<ReadTfrecordOptions, 'onError'> = {},
): Promise<VerifyResult> {
  const files = await expandPaths(paths, 'verifyTfrecord');
  const batches = tfrecordBatches({ ...options, paths: files, onError: 'skip' }, false);
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

/** Async iteration over a ReadableStream that releases it when the loop stops early. */
export async function* iterate<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

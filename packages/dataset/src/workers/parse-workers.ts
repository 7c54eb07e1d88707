import { TfpipeError } from '@tfpipe/core';
import type { Position, TfpipeErrorCode } from '@tfpipe/core';
import { RequestThread } from '@tfpipe/core/internal';
import type { ThreadWorker } from '@tfpipe/core/internal';
import type { SpanHandler, WireSpans } from '../parse/wire-batcher.js';
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import type { ParsedBatch, Tensor } from '../tensor.js';
import { attachPositions } from '../batch-positions.js';
import { unpackStrings } from './packed-strings.js';
import { dataCrcError } from '../parse/span-crcs.js';
import type { SpanCrcCheck } from '../parse/span-crcs.js';
import type { PackedStrings } from './packed-strings.js';

/** A batch of serialized Examples as a parse worker receives it. Internal. */
export interface SpanRequest {
  readonly bytes: Uint8Array;
  readonly ends: Int32Array;
  readonly count: number;
  /** The files of the batch's runs of records, in order (one name per run, not per record). */
  readonly files: readonly string[];
  /** Where each run of `files` ends: records `runEnds[i - 1]` to `runEnds[i]` are in `files[i]`. */
  readonly runEnds: Int32Array;
  readonly recordIndexes: Float64Array;
  readonly byteOffsets: Float64Array;
  /** Each record's stored masked data CRC, for the worker to check before it parses (absent: checked already). */
  readonly crcs?: Uint32Array;
}

/** A parse error as it crosses threads: a TfpipeError's parts, or another error's message. */
export type WorkerError =
  | {
      readonly code: TfpipeErrorCode;
      readonly detail: string;
      readonly position: Position;
      readonly fatal: boolean;
      readonly stage?: string;
      readonly reason?: string;
    }
  | { readonly message: string };

/** A parse worker's answer. Internal. */
export type SpanReply =
  | {
      readonly id: number;
      /** The batch, its string tensors' `data` empty: their values are in `strings`. */
      readonly batch: Record<string, Tensor>;
      readonly strings: Record<string, PackedStrings>;
      readonly error?: undefined;
    }
  | { readonly id: number; readonly error: WorkerError; readonly batch?: undefined };

/** How long a parse worker with nothing to do stays alive, milliseconds. */
const IDLE_EXIT_MS = 5000;

/**
 * How one runtime starts a parse worker: Node's worker threads (`@tfpipe/dataset/node`) or module Web
 * Workers (the web entry). Internal.
 */
export interface ParseWorkerLauncher {
  /** Starts a worker that parses with `spec` (a structured-cloneable spec object). */
  start(spec: ExampleParseSpec): ThreadWorker;
  /** The reason an exit of the worker gives the batches it held. */
  exitMessage(code: number): string;
  /**
   * The data CRC check this thread runs on a batch that never reaches a worker (the reader failed
   * after its records): see `SpanHandler.checkCrcs`.
   */
  readonly crcCheck?: SpanCrcCheck;
}

/**
 * Parses batches on `count` workers (threads in Node, Web Workers in browsers: `launcher` starts
 * them), each started with the spec on first use and stopped after 5 s without work; a batch goes to
 * the worker with the fewest waiting. A worker that dies (or cannot start) fails the batches it held
 * with a `TfpipeError` naming their file and records, and a later batch starts a new one. Internal.
 */
export class ParseWorkers<Spec extends ExampleParseSpec> implements SpanHandler<Promise<ParsedBatch<Spec>>> {
  readonly detach = true;
  readonly #pool: WorkerPool;
  readonly checkCrcs?: (spans: WireSpans) => void;

  constructor(spec: Spec, count: number, launcher: ParseWorkerLauncher) {
    this.#pool = new WorkerPool(
      count,
      () => launcher.start(spec),
      (code) => launcher.exitMessage(code),
    );
    const crcCheck = launcher.crcCheck;
    if (crcCheck !== undefined)
      this.checkCrcs = ({ bytes, ends, count, crcs, places }) => {
        const bad = crcs === undefined ? -1 : crcCheck(bytes, ends, count, crcs);
        if (bad >= 0) throw dataCrcError(places[bad]!);
      };
  }

  handle(spans: WireSpans): Promise<ParsedBatch<Spec>> {
    const { bytes, ends, count, places, crcs } = spans;
    // One name per run of records from the same file: a name per record costs more to send than the parse saves.
    const files: string[] = [];
    const runs: number[] = [];
    const recordIndexes = new Float64Array(count);
    const byteOffsets = new Float64Array(count);
    for (let index = 0; index < count; index++) {
      const place = places[index]!;
      if (index === 0 || place.file !== files[files.length - 1]) {
        if (index > 0) runs.push(index);
        files.push(place.file);
      }
      recordIndexes[index] = place.recordIndex;
      byteOffsets[index] = place.byteOffset;
    }
    runs.push(count);
    const runEnds = Int32Array.from(runs);
    // The worker gets copies: these stay here to place the batch's records (e.g. for decodeImages' errors).
    const request: SpanRequest = {
      bytes,
      ends,
      count,
      files,
      runEnds: runEnds.slice(),
      recordIndexes: recordIndexes.slice(),
      byteOffsets: byteOffsets.slice(),
      ...(crcs === undefined ? {} : { crcs }),
    };
    // Copies: the batcher reuses its place objects for the next batch.
    const first = placeOf(places[0]!);
    const last = placeOf(places[count - 1]!);
    let thread: RequestThread;
    try {
      thread = this.#pool.thread();
    } catch (error) {
      return Promise.reject(crashError(first, last, error));
    }
    const transfer = [
      bytes.buffer,
      ends.buffer,
      request.runEnds.buffer,
      request.recordIndexes.buffer,
      request.byteOffsets.buffer,
    ];
    if (crcs !== undefined) transfer.push(crcs.buffer);
    return thread.request<SpanReply>(request, transfer).then(
      (reply) => {
        if (reply.error !== undefined) throw errorFromWorker(reply.error);
        const batch = Object.create(null) as Record<string, Tensor>;
        for (const [name, tensor] of Object.entries(reply.batch)) batch[name] = tensor;
        unpackStrings(batch, reply.strings);
        attachPositions(batch, (batchIndex) => ({
          file: files[runOf(runEnds, batchIndex)]!,
          recordIndex: recordIndexes[batchIndex]!,
          byteOffset: byteOffsets[batchIndex]!,
        }));
        return batch as ParsedBatch<Spec>;
      },
      (error: unknown) => {
        throw crashError(first, last, error);
      },
    );
  }
}

/**
 * `count` workers started on first use (`start`) and stopped after 5 s without work, each request
 * going to the one with the fewest waiting; a worker that died is replaced by the next request.
 * Internal: what parse workers and image workers schedule with.
 */
export class WorkerPool {
  readonly #start: () => ThreadWorker;
  readonly #exitMessage: (code: number) => string;
  readonly #threads: (RequestThread | undefined)[];
  #next = 0;

  constructor(count: number, start: () => ThreadWorker, exitMessage: (code: number) => string) {
    this.#start = start;
    this.#exitMessage = exitMessage;
    this.#threads = Array.from({ length: count }, () => undefined);
  }

  /**
   * The worker with the fewest requests waiting (a new one where a slot is empty or its worker died).
   * @throws whatever starting a worker throws
   */
  thread(): RequestThread {
    let best: RequestThread | undefined;
    for (let step = 0; step < this.#threads.length; step++) {
      const slot = (this.#next + step) % this.#threads.length;
      let thread = this.#threads[slot];
      if (thread === undefined || !thread.running) {
        thread = new RequestThread({
          start: this.#start,
          idleExitMs: IDLE_EXIT_MS,
          exitMessage: this.#exitMessage,
        });
        this.#threads[slot] = thread;
      }
      if (best === undefined || thread.load < best.load) best = thread;
      if (best.load === 0) break;
    }
    this.#next = (this.#next + 1) % this.#threads.length;
    return best!;
  }
}

/**
 * The parse workers of `spec` and `count` from `cache`: the same workers for every `parse` with the
 * same spec object, so a pass (an epoch, a new dataset over other files) does not start workers again
 * while they live. Internal.
 */
export function cachedParseWorkers<Spec extends ExampleParseSpec>(
  cache: WeakMap<object, Map<number, ParseWorkers<ExampleParseSpec>>>,
  spec: Spec,
  count: number,
  launcher: ParseWorkerLauncher,
): ParseWorkers<Spec> {
  let byCount = cache.get(spec);
  if (byCount === undefined) cache.set(spec, (byCount = new Map<number, ParseWorkers<ExampleParseSpec>>()));
  let workers = byCount.get(count);
  if (workers === undefined) byCount.set(count, (workers = new ParseWorkers(spec, count, launcher)));
  return workers as ParseWorkers<Spec>;
}

/** The run (of `runEnds`) record `index` is in. */
function runOf(runEnds: Int32Array, index: number): number {
  let run = 0;
  while (index >= runEnds[run]!) run++;
  return run;
}

/** An error caught in a worker as it crosses threads. Internal. */
export function toWorkerError(error: unknown): WorkerError {
  return TfpipeError.is(error)
    ? {
        code: error.code,
        detail: error.detail,
        position: error.position,
        fatal: error.fatal,
        ...(error.stage === undefined ? {} : { stage: error.stage }),
        ...(error.reason === undefined ? {} : { reason: error.reason }),
      }
    : { message: error instanceof Error ? error.message : String(error) };
}

/** The most workers one pool starts (`workers` above is `INVALID_OPTION`). */
export const MAX_WORKERS = 256;

/** A worker's error (see {@link WorkerError}) as this thread's error. Internal. */
export function errorFromWorker(error: WorkerError): Error {
  if (!('code' in error)) return new Error(error.message);
  return new TfpipeError(error.code, error.detail, {
    position: error.position,
    fatal: error.fatal,
    ...(error.stage === undefined ? {} : { stage: error.stage }),
    ...(error.reason === undefined ? {} : { reason: error.reason }),
  });
}

interface Place {
  readonly file: string;
  readonly recordIndex: number;
  readonly byteOffset: number;
}

function placeOf({ file, recordIndex, byteOffset }: Place): Place {
  return { file, recordIndex, byteOffset };
}

/** A worker that died (or could not start) while it held the batch from `first` to `last`. */
function crashError(first: Place, last: Place, error: unknown): TfpipeError {
  const range =
    first.file === last.file
      ? `records ${first.recordIndex}–${last.recordIndex} of ${first.file} (from byte ${first.byteOffset})`
      : `records from ${first.recordIndex} of ${first.file} to ${last.recordIndex} of ${last.file}`;
  return new TfpipeError('INTERNAL', 'a parse worker failed', {
    stage: 'parse',
    fatal: true,
    position: { file: first.file, recordIndex: first.recordIndex, byteOffset: first.byteOffset },
    reason: `${range}: ${error instanceof Error ? error.message : String(error)}`,
    cause: error,
  });
}

import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  attachReport,
  encodeExample,
  encodeSequenceExample,
  isSequenceExample,
  seededRandom,
  TfpipeError,
  type Example,
  type Reporter,
  type SequenceExample,
} from '@tfpipe/core';
import { frameRecord } from './frame-record.js';
import { writeError } from './io-error.js';
import { tfrecordSource } from './tfrecord-source.js';

/** Options of {@link externalShuffle}. */
export interface ExternalShuffleOptions {
  /** The seed: the same seed and input give the same order. @default 0 */
  readonly seed?: number;
  /**
   * Serialized bytes held in memory before a shuffled run is spilled to a temporary file; input
   * that fits is shuffled in memory and never touches the disk.
   * @default 268435456 (256 MiB)
   */
  readonly memoryBytes?: number;
  /** Where the temporary directory goes. @default os.tmpdir() */
  readonly directory?: string;
  /** Bytes each run reads at a time while merging (memory while merging: runs × this). @default 65536 */
  readonly readChunkBytes?: number;
}

type Input = Example | SequenceExample | Uint8Array;
const STAGE = 'externalShuffle';

function serialize(record: Input): Uint8Array {
  if (record instanceof Uint8Array) return record;
  return isSequenceExample(record) ? encodeSequenceExample(record) : encodeExample(record);
}

/**
 * A full, uniform, seeded shuffle of datasets larger than memory: records are serialized and held
 * up to `memoryBytes`, each full buffer is shuffled and spilled to a temporary TFRecord file (a
 * run), and at the end the runs are merged by drawing each next record from a run with probability
 * proportional to the records it has left, which makes every order equally likely. Output is
 * serialized payloads (`Uint8Array`), ready for `tfrecordSink`.
 *
 * Temporaries live in a fresh `tfpipe-shuffle-*` directory that is removed when the output ends,
 * when either side is aborted or cancelled, and on any error. Its report: `records`,
 * `details.shuffleRuns` (files spilled) and `details.shuffleSpilledBytes`.
 */
export function externalShuffle(options: ExternalShuffleOptions = {}): {
  readonly writable: WritableStream<Input | readonly Input[]>;
  readonly readable: ReadableStream<Uint8Array>;
} & Reporter {
  const memoryBytes = options.memoryBytes ?? 256 * 1024 * 1024;
  if (!Number.isSafeInteger(memoryBytes) || memoryBytes < 1) {
    throw new TfpipeError(
      'INVALID_OPTION',
      `externalShuffle(): memoryBytes must be a positive integer, got ${String(memoryBytes)}`,
      {
        stage: STAGE,
        fatal: true,
      },
    );
  }
  const readChunkBytes = options.readChunkBytes ?? 65536;
  const random = seededRandom(options.seed ?? 0);
  let buffer: Uint8Array[] = [];
  let bufferBytes = 0;
  let directory: string | undefined;
  const runs: { path: string; records: number }[] = [];
  let spilledBytes = 0;
  let emitted = 0;
  let cleaned: Promise<void> | undefined;
  let inputDone!: () => void;
  let inputFailed!: (error: unknown) => void;
  const input = new Promise<void>((resolve, reject) => {
    inputDone = resolve;
    inputFailed = reject;
  });
  input.catch(() => undefined);
  let writableController: WritableStreamDefaultController | undefined;
  let readableController: ReadableStreamDefaultController<Uint8Array> | undefined;
  let merge:
    | { readers: ReadableStreamDefaultReader<{ data: Uint8Array }>[]; left: number[]; total: number }
    | undefined;

  const shuffleInPlace = (items: Uint8Array[]): void => {
    for (let end = items.length; end > 1; end--) {
      const index = random.below(end);
      const last = items[end - 1]!;
      items[end - 1] = items[index]!;
      items[index] = last;
    }
  };
  const cleanup = (): Promise<void> => {
    cleaned ??= (async () => {
      buffer = [];
      await Promise.allSettled((merge?.readers ?? []).map((reader) => reader.cancel()));
      if (directory !== undefined) await rm(directory, { recursive: true, force: true });
    })();
    return cleaned;
  };
  const spill = async (): Promise<void> => {
    directory ??= await mkdtemp(join(options.directory ?? tmpdir(), 'tfpipe-shuffle-'));
    const path = join(directory, `run-${String(runs.length).padStart(5, '0')}.tfrecord`);
    shuffleInPlace(buffer);
    const handle = await open(path, 'wx').catch((error: unknown) => {
      throw writeError(error, path, STAGE, 'spilling a shuffle run');
    });
    try {
      const chunk: Uint8Array[] = [];
      let chunkBytes = 0;
      const flush = async (): Promise<void> => {
        if (chunk.length === 0) return;
        await handle.writev(chunk);
        chunk.length = 0;
        chunkBytes = 0;
      };
      for (const record of buffer) {
        const frame = frameRecord(record);
        chunk.push(frame);
        chunkBytes += frame.length;
        spilledBytes += frame.length;
        if (chunkBytes >= 1 << 20) await flush();
      }
      await flush();
    } catch (error) {
      throw writeError(error, path, STAGE, 'spilling a shuffle run');
    } finally {
      await handle.close();
    }
    runs.push({ path, records: buffer.length });
    buffer = [];
    bufferBytes = 0;
  };
  const add = async (record: Input): Promise<void> => {
    const bytes = serialize(record);
    buffer.push(bytes);
    bufferBytes += bytes.length + 16;
    if (bufferBytes >= memoryBytes) await spill();
  };

  const writable = new WritableStream<Input | readonly Input[]>({
    start(controller) {
      writableController = controller;
    },
    async write(chunk) {
      try {
        if (Array.isArray(chunk)) for (const record of chunk as readonly Input[]) await add(record);
        else await add(chunk as Input);
      } catch (error) {
        inputFailed(error);
        readableController?.error(error);
        await cleanup();
        throw error;
      }
    },
    async close() {
      try {
        if (runs.length > 0 && buffer.length > 0) await spill();
        else shuffleInPlace(buffer);
        inputDone();
      } catch (error) {
        inputFailed(error);
        readableController?.error(error);
        await cleanup();
        throw error;
      }
    },
    async abort(reason) {
      inputFailed(reason);
      readableController?.error(reason);
      await cleanup();
    },
  });

  const openMerge = () => {
    const readers = runs.map((run) =>
      tfrecordSource({
        paths: run.path,
        compression: 'none',
        chunkBytes: readChunkBytes,
        highWaterMark: 4,
      }).getReader(),
    );
    const left = runs.map((run) => run.records);
    return { readers, left, total: left.reduce((sum, count) => sum + count, 0) };
  };
  const next = async (): Promise<Uint8Array | undefined> => {
    if (runs.length === 0) {
      const record = buffer.pop();
      return record;
    }
    merge ??= openMerge();
    if (merge.total === 0) return undefined;
    let pick = random.below(merge.total);
    let run = 0;
    while (pick >= merge.left[run]!) pick -= merge.left[run++]!;
    const result = await merge.readers[run]!.read();
    if (result.done) {
      throw new TfpipeError('INTERNAL', 'a shuffle run ended early', {
        stage: STAGE,
        position: { file: runs[run]!.path },
        fatal: true,
      });
    }
    merge.left[run]!--;
    merge.total--;
    return result.value.data;
  };

  const readable = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        readableController = controller;
      },
      async pull(controller) {
        try {
          await input;
          const record = await next();
          if (record === undefined) {
            await cleanup();
            controller.close();
            return;
          }
          emitted++;
          controller.enqueue(record);
        } catch (error) {
          await cleanup();
          writableController?.error(error);
          throw error;
        }
      },
      async cancel(reason) {
        writableController?.error(reason);
        inputFailed(reason);
        await cleanup();
      },
    },
    { highWaterMark: 16 },
  );
  return attachReport({ writable, readable }, () => ({
    stage: STAGE,
    records: emitted,
    details: { shuffleRuns: runs.length, shuffleSpilledBytes: spilledBytes },
  }));
}

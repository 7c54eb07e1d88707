import { mkdtemp, open, rm, unlink } from 'node:fs/promises';
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
import { frameRecord, tfrecordSource, writeError } from '@tfpipe/sink-tfrecord';

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
  /**
   * Runs merged at once, each an open file. With more runs than this, groups of this many are
   * first merged into longer runs (in passes), so the open files stay under the limit
   * (`ulimit -n`) whatever the input size. At least 2. @default 128
   */
  readonly maxOpenRuns?: number;
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
 * when either side is aborted or cancelled, and on any error. More runs than `maxOpenRuns` are
 * merged in passes (groups into longer runs, each merge uniform too), so the open files stay
 * bounded. Its report: `records`, `details.shuffleRuns` (files spilled), `details.shuffleMergePasses`
 * and `details.shuffleSpilledBytes`.
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
  const maxOpenRuns = options.maxOpenRuns ?? 128;
  if (!Number.isSafeInteger(maxOpenRuns) || maxOpenRuns < 2) {
    throw new TfpipeError(
      'INVALID_OPTION',
      `externalShuffle(): maxOpenRuns must be an integer of at least 2, got ${String(maxOpenRuns)}`,
      { stage: STAGE, fatal: true },
    );
  }
  const random = seededRandom(options.seed ?? 0);
  let buffer: Uint8Array[] = [];
  let bufferBytes = 0;
  let directory: string | undefined;
  const runs: { path: string; records: number }[] = [];
  let spilledBytes = 0;
  let mergePasses = 0;
  let spilledRuns = 0;
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
  let runCounter = 0;
  let merge: { readers: ReadableStreamDefaultReader<{ data: Uint8Array }>[] } | undefined;

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
  /** Writes records, framed, to a new run file; resolves with its path and size once it is closed. */
  const writeRun = async (
    records: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  ): Promise<{ path: string; written: number }> => {
    let written = 0;
    directory ??= await mkdtemp(join(options.directory ?? tmpdir(), 'tfpipe-shuffle-'));
    const path = join(directory, `run-${String(runCounter++).padStart(5, '0')}.tfrecord`);
    const handle = await open(path, 'wx').catch((error: unknown) => {
      throw writeError(error, path, STAGE, 'spilling a shuffle run');
    });
    try {
      const chunk: Uint8Array[] = [];
      let chunkBytes = 0;
      for await (const record of records) {
        const frame = frameRecord(record);
        chunk.push(frame);
        chunkBytes += frame.length;
        written += frame.length;
        if (chunkBytes >= 1 << 20) {
          await handle.writev(chunk);
          chunk.length = 0;
          chunkBytes = 0;
        }
      }
      if (chunk.length > 0) await handle.writev(chunk);
    } catch (error) {
      throw writeError(error, path, STAGE, 'spilling a shuffle run');
    } finally {
      await handle.close();
    }
    return { path, written };
  };
  const spill = async (): Promise<void> => {
    shuffleInPlace(buffer);
    const { path, written } = await writeRun(buffer);
    spilledBytes += written;
    spilledRuns++;
    runs.push({ path, records: buffer.length });
    buffer = [];
    bufferBytes = 0;
  };
  /** Opens runs for merging: one reader each, and the records each has left. */
  const openRuns = (group: readonly { path: string; records: number }[]) => {
    const readers = group.map((run) =>
      tfrecordSource({
        paths: run.path,
        compression: 'none',
        chunkBytes: readChunkBytes,
        highWaterMark: 4,
      }).getReader(),
    );
    const left = group.map((run) => run.records);
    return { readers, left, total: left.reduce((sum, count) => sum + count, 0), group };
  };
  /**
   * The next record of an open merge: from a run drawn with probability proportional to the
   * records it has left, which keeps the merged order uniform.
   */
  const draw = async (open: ReturnType<typeof openRuns>): Promise<Uint8Array | undefined> => {
    if (open.total === 0) return undefined;
    let pick = random.below(open.total);
    let run = 0;
    while (pick >= open.left[run]!) pick -= open.left[run++]!;
    const result = await open.readers[run]!.read();
    if (result.done) {
      throw new TfpipeError('INTERNAL', 'a shuffle run ended early', {
        stage: STAGE,
        position: { file: open.group[run]!.path },
        fatal: true,
      });
    }
    open.left[run]!--;
    open.total--;
    return result.value.data;
  };
  /** Merges groups of `maxOpenRuns` runs into single runs until at most that many are left. */
  const mergeDown = async (): Promise<void> => {
    while (runs.length > maxOpenRuns) {
      mergePasses++;
      const groups: { path: string; records: number }[][] = [];
      for (let start = 0; start < runs.length; start += maxOpenRuns)
        groups.push(runs.slice(start, start + maxOpenRuns));
      runs.length = 0;
      for (const group of groups) {
        if (group.length === 1) {
          runs.push(group[0]!);
          continue;
        }
        const open = openRuns(group);
        merge = open;
        const records = (async function* () {
          for (let record = await draw(open); record !== undefined; record = await draw(open)) yield record;
        })();
        const { path } = await writeRun(records);
        merge = undefined;
        await Promise.allSettled(open.readers.map((reader) => reader.cancel()));
        for (const run of group) await unlink(run.path).catch(() => undefined);
        runs.push({ path, records: group.reduce((sum, run) => sum + run.records, 0) });
      }
    }
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

  let final: ReturnType<typeof openRuns> | undefined;
  const next = async (): Promise<Uint8Array | undefined> => {
    if (runs.length === 0) return buffer.pop();
    if (final === undefined) {
      await mergeDown();
      final = openRuns(runs);
      merge = final;
    }
    return draw(final);
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
    details: { shuffleRuns: spilledRuns, shuffleMergePasses: mergePasses, shuffleSpilledBytes: spilledBytes },
  }));
}

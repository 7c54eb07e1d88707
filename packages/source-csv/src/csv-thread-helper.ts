import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { LoadingThread } from './loading-thread.js';
import type { ColumnPlan } from './column-plan.js';
import type { CsvRemainder } from './csv-record-reader.js';
import type { CsvSchema } from './csv-schema.js';
import type { ResolvedCsvSourceOptions } from './csv-source-options.js';

/**
 * `threads: 'auto'`'s choice for a file with `left` bytes still to convert: at least
 * {@link THREAD_MIN_BYTES}, four or more cores, and the last minute's load average below their number
 * less one (on two cores the thread measured slower than one; on busy cores its extra work only slows
 * the run).
 */
export function autoWantsThread(left: number, cores = availableParallelism(), load = loadavg()[0]!): boolean {
  return left >= THREAD_MIN_BYTES && cores >= 4 && load < cores - 1;
}

/**
 * Bytes a file must still hold after the hand-off for `threads: 'auto'` to use the thread: below it,
 * starting the thread costs more than it saves.
 */
export const THREAD_MIN_BYTES = 4 * 1024 * 1024;
/** Chunks the thread holds at most (converting one, the next waiting). */
const IN_FLIGHT = 2;
/** Claim words, used in turn: more than the chunks ever held at once. */
const CLAIM_SLOTS = 16;
/** A claim word's states: nobody has started the chunk, the thread has, the calling thread has. */
export const UNCLAIMED = 0;
export const THREAD_CLAIMED = 1;
const CALLER_CLAIMED = 2;

/** What the thread needs to convert chunks as the calling thread's byte path does. */
export interface CsvThreadSettings {
  /** The reader's options with the delimiter settled and no stream. */
  readonly options: ResolvedCsvSourceOptions;
  readonly plan: ColumnPlan;
  readonly schema: CsvSchema;
  readonly chunkBytes: number;
  /**
   * One word per slot in shared memory: whoever starts a chunk first claims its slot, so a chunk the
   * thread has not started yet is converted by the calling thread instead of waited for.
   */
  readonly claims: Int32Array;
}

/** A chunk for the thread: converted on its own from `byteOffset` of `file`. */
export interface CsvChunkRequest {
  readonly bytes: Uint8Array;
  readonly file: string;
  readonly byteOffset: number;
  /** Its claim word in {@link CsvThreadSettings.claims}. */
  readonly slot: number;
}

/** A chunk given to the thread: its claim word, and the thread's answer. */
export interface CsvChunkJob {
  readonly slot: number;
  readonly reply: Promise<CsvChunkReply>;
}

/**
 * The thread's conversion of one chunk: the Examples packed in `bytes`, each with room for its
 * TFRecord frame before and after it, and positions relative to the chunk's start (lines from 1,
 * rows from 0). `complete` is false when the chunk cannot be taken as converted (a record error,
 * invalid UTF-8, a record left open at its end): the calling thread then converts it itself.
 */
export interface CsvChunkReply {
  readonly id: number;
  readonly complete: boolean;
  readonly bytes: Uint8Array;
  /** Where each record's wire bytes start in `bytes`. */
  readonly offsets: Int32Array;
  readonly lengths: Int32Array;
  readonly lines: Float64Array;
  readonly rows: Float64Array;
  /** Lines and data rows the chunk's records took. */
  readonly lineCount: number;
  readonly rowCount: number;
  /** Records converted from bytes (not by the text path). */
  readonly records: number;
}

/**
 * The built thread module: beside this module in `dist`; from the TypeScript sources (under the test
 * runner) the package's built copy, which the package's tests build first.
 */
function threadUrl(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('../dist/csv-thread.js', here) : new URL('./csv-thread.js', here);
}

/** Starts the thread's worker from its module URL and settings. */
type StartWorker = (url: URL, settings: CsvThreadSettings) => Worker;

const startWorker: StartWorker = (url, settings) =>
  new Worker(url, { workerData: settings, name: 'tfpipe csv' });
let starter: StartWorker = startWorker;

/**
 * Test seam: how later threads are started (`undefined`: the default). The crash tests start the
 * real thread module in a worker that then exits; nothing else calls it. Internal.
 */
export function setCsvThreadStarter(start: StartWorker | undefined): void {
  starter = start ?? startWorker;
}

/**
 * One worker thread that converts chunks of the byte path for `csvToExamples` (`threads`), started on
 * first use and stopped when the run ends or after 5 s without work. Until it has loaded, and where
 * threads cannot start, {@link convert} declines and the calling thread converts everything itself.
 */
export class CsvThreadHelper {
  readonly #settings: CsvThreadSettings;
  readonly #threads: 2 | 'auto';
  readonly #thread: LoadingThread;
  #nextSlot = 0;

  constructor(settings: Omit<CsvThreadSettings, 'claims'>, threads: 2 | 'auto') {
    const ready = { ...settings, claims: new Int32Array(new SharedArrayBuffer(4 * CLAIM_SLOTS)) };
    this.#settings = ready;
    this.#threads = threads;
    this.#thread = new LoadingThread('CSV', () => starter(threadUrl(), ready));
  }

  /**
   * Whether the thread helps with the rest of this file: always for `threads: 2`; for `'auto'` when
   * at least {@link THREAD_MIN_BYTES} are left and a core is to spare (four or more cores, and the
   * last minute's load average below their number less one): on a machine whose cores are all busy
   * the thread's extra work only slows the run, and on two cores it measured slower. Starts the thread.
   */
  wants(remainder: CsvRemainder): boolean {
    if (!this.#thread.available) return false;
    if (this.#threads === 'auto' && !autoWantsThread(remainder.input.size - remainder.byteOffset))
      return false;
    this.#thread.start();
    return this.#thread.available;
  }

  /**
   * With `threads: 2`, waits until the thread has loaded (or is gone), so that it takes its share from
   * the first chunks on; with `'auto'` the calling thread goes on meanwhile.
   */
  async loaded(): Promise<void> {
    if (this.#threads === 2) await this.#thread.loaded();
  }

  /** Chunks given to the thread and not answered yet. */
  get inFlight(): number {
    return this.#thread.load;
  }

  /**
   * Gives the thread a chunk (copied), or declines (undefined) when it is busy, not loaded yet or gone.
   * The promise rejects when the thread fails or exits before it answers.
   */
  convert(bytes: Uint8Array, file: string, byteOffset: number): CsvChunkJob | undefined {
    const thread = this.#thread.thread;
    if (thread === undefined || thread.load >= IN_FLIGHT) return undefined;
    // Slots are reused in turn; a slot's last chunk was answered long before (at most IN_FLIGHT wait).
    const slot = this.#nextSlot;
    this.#nextSlot = (slot + 1) % CLAIM_SLOTS;
    Atomics.store(this.#settings.claims, slot, UNCLAIMED);
    const request: CsvChunkRequest = { bytes, file, byteOffset, slot };
    const reply = thread.request<CsvChunkReply>(request);
    // Awaited when the chunk's turn comes; one seen only after an earlier failure is not unhandled.
    reply.catch(() => undefined);
    return { slot, reply };
  }

  /**
   * Takes back a chunk the thread has not started: true when the calling thread now converts it (the
   * thread will decline it), false when the thread has started it (its answer is then awaited).
   * With `threads: 2` the thread keeps every chunk it was given: which chunks it converts then
   * depends on when it answers, never on when it is scheduled.
   */
  takeBack(job: CsvChunkJob): boolean {
    if (this.#threads === 2) return false;
    return Atomics.compareExchange(this.#settings.claims, job.slot, UNCLAIMED, CALLER_CLAIMED) === UNCLAIMED;
  }

  /** Stops the thread; chunks it held reject. */
  async stop(): Promise<void> {
    await this.#thread.stop();
  }
}

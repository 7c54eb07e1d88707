import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { RequestThread } from '@tfpipe/core/internal';
import type { ColumnPlan } from './column-plan.js';
import type { CsvRemainder } from './csv-record-reader.js';
import type { CsvSchema } from './csv-schema.js';
import type { ResolvedCsvSourceOptions } from './csv-source-options.js';

/**
 * Bytes a file must still hold after the hand-off for `threads: 'auto'` to use the thread: below it,
 * starting the thread costs more than it saves.
 */
export const THREAD_MIN_BYTES = 4 * 1024 * 1024;
/** Chunks the thread holds at most (converting one, the next waiting). */
const IN_FLIGHT = 2;
/** How long the thread stays alive without work (a next file may follow), milliseconds. */
const IDLE_EXIT_MS = 5000;

/** What the thread needs to convert chunks as the calling thread's byte path does. */
export interface CsvThreadSettings {
  /** The reader's options with the delimiter settled and no stream. */
  readonly options: ResolvedCsvSourceOptions;
  readonly plan: ColumnPlan;
  readonly schema: CsvSchema;
  readonly chunkBytes: number;
}

/** A chunk for the thread: converted on its own from `byteOffset` of `file`. */
export interface CsvChunkRequest {
  readonly bytes: Uint8Array;
  readonly file: string;
  readonly byteOffset: number;
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
  #thread: RequestThread | undefined;
  #ready = false;
  /** Settles once the thread has loaded or is gone. */
  #loaded: Promise<void> = Promise.resolve();
  #markLoaded: () => void = () => undefined;
  /** A thread could not start here: never try again. */
  #unavailable = false;

  constructor(settings: CsvThreadSettings, threads: 2 | 'auto') {
    this.#settings = settings;
    this.#threads = threads;
  }

  /**
   * Whether the thread helps with the rest of this file: always for `threads: 2`; for `'auto'` when
   * at least {@link THREAD_MIN_BYTES} are left and the machine has a second core. Starts the thread.
   */
  wants(remainder: CsvRemainder): boolean {
    if (this.#unavailable) return false;
    if (this.#threads === 'auto') {
      const left = remainder.input.size - remainder.byteOffset;
      if (left < THREAD_MIN_BYTES || availableParallelism() < 2) return false;
    }
    this.#start();
    return !this.#unavailable;
  }

  /**
   * With `threads: 2`, waits until the thread has loaded (or is gone), so that it takes its share from
   * the first chunks on; with `'auto'` the calling thread goes on meanwhile.
   */
  async loaded(): Promise<void> {
    if (this.#threads !== 2 || this.#ready) return;
    // The thread does not hold the process open while it loads: this wait must.
    const hold = setInterval(() => undefined, 60_000);
    try {
      await this.#loaded;
    } finally {
      clearInterval(hold);
    }
  }

  /** Chunks given to the thread and not answered yet. */
  get inFlight(): number {
    return this.#thread?.load ?? 0;
  }

  /**
   * Gives the thread a chunk (copied), or declines (undefined) when it is busy, not loaded yet or gone.
   * The promise rejects when the thread fails or exits before it answers.
   */
  convert(bytes: Uint8Array, file: string, byteOffset: number): Promise<CsvChunkReply> | undefined {
    const thread = this.#thread;
    if (!this.#ready || thread === undefined || !thread.running || thread.load >= IN_FLIGHT) return undefined;
    const request: CsvChunkRequest = { bytes, file, byteOffset };
    const reply = thread.request<CsvChunkReply>(request);
    // Awaited when the chunk's turn comes; one seen only after an earlier failure is not unhandled.
    reply.catch(() => undefined);
    return reply;
  }

  #start(): void {
    if (this.#thread?.running === true) return;
    this.#ready = false;
    this.#loaded = new Promise((resolve) => (this.#markLoaded = resolve));
    try {
      this.#thread = new RequestThread({
        start: () => starter(threadUrl(), this.#settings),
        idleExitMs: IDLE_EXIT_MS,
        exitMessage: (code) => `the CSV thread exited (code ${code})`,
        // The thread says it has loaded: from then on chunks go to it.
        onMessage: () => {
          this.#ready = true;
          this.#markLoaded();
        },
        onGone: () => this.#markLoaded(),
      });
    } catch {
      this.#unavailable = true;
      this.#markLoaded();
    }
  }

  /** Stops the thread; chunks it held reject. */
  async stop(): Promise<void> {
    const thread = this.#thread;
    this.#thread = undefined;
    this.#ready = false;
    await thread?.stop(new Error('the CSV thread was stopped'));
  }
}

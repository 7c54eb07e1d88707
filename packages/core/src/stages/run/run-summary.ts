import type { ShardSummary, StageReport } from '../../contract/plugin-contract.js';
import type { TfpipeError } from '../../errors/tfpipe-error.js';

/** What `run()` resolves with once the sink has closed. */
export interface RunSummary {
  /** Rows the source produced: its report's `records`, or counted at its output. */
  readonly recordsRead: number;
  /** Records that reached the sink (counted at its input). */
  readonly recordsWritten: number;
  /** Records dropped under `onError: 'skip'`, summed over every stage's report. */
  readonly skipped: number;
  /** The first skipped errors of every stage, in stage order (each stage keeps a bounded number). */
  readonly skippedErrors: readonly TfpipeError[];
  /** Bytes the sink wrote (its report's `bytes`), 0 if it does not report. */
  readonly bytes: number;
  /** Files the sink finalised. */
  readonly shards: readonly ShardSummary[];
  /** Wall time of the run, in milliseconds. */
  readonly elapsedMs: number;
  /** Every stage's final report, source first, sink last (streams without a report are left out). */
  readonly stages: readonly StageReport[];
  /** The `details` of every report merged (later stages win on equal keys): an inferred schema, a label map … */
  readonly details: Readonly<Record<string, unknown>>;
}

/** What the progress callback receives while the run goes. */
export interface Progress {
  /** Records that reached the sink so far. */
  readonly records: number;
  /** Rows the source produced so far (its report's `records`, or counted). */
  readonly recordsRead: number;
  /** Bytes the sink has written so far (its report's `bytes`), 0 if it does not report. */
  readonly bytes: number;
  /** Bytes the source has read so far (its report's `bytes`), for an ETA against the input size; 0 if unknown. */
  readonly bytesRead: number;
  /** The shard the sink is writing now, if it says. */
  readonly currentShard: string | undefined;
  /** `records` per second of elapsed time. */
  readonly recordsPerSecond: number;
  /** Milliseconds since the run started. */
  readonly elapsedMs: number;
}

/** Options of `run()`. */
export interface RunOptions {
  /**
   * Aborting it cancels the source (which releases its files), aborts the sink (which removes its
   * temporaries) and rejects the run with `TfpipeError` `ABORTED`.
   */
  readonly signal?: AbortSignal;
  /** Called every `progressIntervalMs` while the run goes, and once at the end. */
  readonly onProgress?: (progress: Progress) => void;
  /**
   * Milliseconds between progress calls.
   * @default 500
   */
  readonly progressIntervalMs?: number;
}

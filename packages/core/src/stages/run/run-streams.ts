import { lendIfSafe } from '../../contract/lending.js';
import { reportOf } from '../../contract/plugin-contract.js';
import type { StageReport } from '../../contract/plugin-contract.js';
import { TfpipeError } from '../../errors/tfpipe-error.js';
import { recordsIn } from '../batch.js';
import type { Progress, RunOptions, RunSummary } from './run-summary.js';

const STAGE = 'run';

/**
 * Runs source → stages → sink with one `pipeTo` per link, so that an error anywhere cancels the
 * source and aborts the sink, and waits for every link to settle (files released) before it settles.
 * It rejects with the TfpipeError a stage raised, never with the streams machinery's own errors.
 * Buffer lending (see `lendIfSafe`) is switched on first when every part allows it.
 */
export async function runStreams(
  source: ReadableStream<unknown>,
  stages: readonly TransformStream<unknown, unknown>[],
  sink: WritableStream<unknown>,
  options: RunOptions = {},
): Promise<RunSummary> {
  const { signal, onProgress, progressIntervalMs = 500 } = options;
  checkOptions(options, progressIntervalMs);
  // Before the first read: a source that lends its records' buffers may do so only from the start.
  lendIfSafe(source, stages, sink);
  const started = performance.now();
  const internal = new AbortController();
  const onAbort = (): void =>
    internal.abort(
      new TfpipeError('ABORTED', 'the run was aborted', { stage: STAGE, fatal: true, cause: signal?.reason }),
    );
  if (signal?.aborted === true) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });

  let read = 0;
  let written = 0;
  const countsItself = reportOf(source)?.records !== undefined;
  // The source and the sink are driven by our own pumps, which cancel and abort them on any failure
  // themselves (Node's pipeTo can skip the cancel when a pending write fails). Links between stages
  // use pipeTo: a failure on either side reaches them as an error or a cancel.
  const links: Promise<void>[] = [];
  if (stages.length === 0) {
    links.push(
      pump(source, sink, internal.signal, (records) => {
        read += records;
        written += records;
      }),
    );
  } else {
    links.push(pump(source, stages[0]!.writable, internal.signal, (records) => (read += records)));
    for (let index = 1; index < stages.length; index++) {
      links.push(stages[index - 1]!.readable.pipeTo(stages[index]!.writable));
    }
    links.push(
      pump(stages[stages.length - 1]!.readable, sink, internal.signal, (records) => (written += records)),
    );
  }

  const progress = (): Progress => {
    const elapsedMs = performance.now() - started;
    const sinkReport = reportOf(sink);
    const sourceReport = reportOf(source);
    return {
      records: written,
      recordsRead: countsItself ? (sourceReport?.records ?? 0) : read,
      bytes: sinkReport?.bytes ?? 0,
      bytesRead: sourceReport?.bytes ?? 0,
      currentShard: sinkReport?.currentShard,
      recordsPerSecond: elapsedMs > 0 ? (written * 1000) / elapsedMs : 0,
      elapsedMs,
    };
  };
  const tick = (): void => {
    try {
      onProgress?.(progress());
    } catch (error) {
      internal.abort(error);
    }
  };
  const timer = onProgress === undefined ? undefined : setInterval(tick, progressIntervalMs);

  const results = await Promise.allSettled(links);
  if (timer !== undefined) clearInterval(timer);
  signal?.removeEventListener('abort', onAbort);
  const last = results[results.length - 1]!;
  if (last.status === 'rejected') throw runError(last.reason, results);
  tick();
  return summarise(
    source,
    stages,
    sink,
    countsItself ? undefined : read,
    written,
    performance.now() - started,
  );
}

function checkOptions(options: RunOptions, progressIntervalMs: number): void {
  if (typeof options !== 'object' || options === null) throw invalid('run options must be an object');
  if (!(progressIntervalMs > 0))
    throw invalid(`progressIntervalMs must be a positive number, got ${String(progressIntervalMs)}`);
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    throw invalid('onProgress must be a function');
  }
}

function invalid(detail: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', detail, { stage: STAGE, fatal: true });
}

/**
 * Moves chunks from `readable` to `writable` honouring backpressure (`writer.ready`), like `pipeTo`,
 * but on any failure or abort it cancels the readable and aborts the writable with the reason itself.
 * `count` gets the records in each chunk: a batch (an array) counts as its length.
 *
 * No per-chunk `Promise.race` against long-lived promises: each race leaves a reaction on them that
 * keeps the chunk alive until the run ends (memory grew with every record). Failures and aborts instead
 * cancel the pending read or abort the pending write, which settles the one await in flight.
 */
async function pump(
  readable: ReadableStream<unknown>,
  writable: WritableStream<unknown>,
  signal: AbortSignal,
  count: (records: number) => void,
): Promise<void> {
  const reader = readable.getReader();
  const writer = writable.getWriter();
  // Racing every read against a never-settling promise would leave one reaction per chunk on it,
  // each holding that chunk: every record read would stay in memory. Instead an abort, or the
  // writable failing while we wait on a slow read, stops both ends once; the loop then sees it.
  let stopped: { readonly reason: unknown } | undefined;
  // A function, so that TypeScript does not narrow `stopped` across the awaits that may set it.
  const stoppedBy = (): { readonly reason: unknown } | undefined => stopped;
  const stop = (reason: unknown): void => {
    if (stopped !== undefined) return;
    stopped = { reason };
    reader.cancel(reason).catch(() => undefined);
    writer.abort(reason).catch(() => undefined);
  };
  const onAbort = (): void => stop(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  writer.closed.catch(stop);
  try {
    for (;;) {
      const next = await reader.read();
      const stoppedAfterRead = stoppedBy();
      if (stoppedAfterRead !== undefined) throw stoppedAfterRead.reason;
      if (next.done) break;
      count(recordsIn(next.value));
      await writer.ready;
      const stoppedAfterReady = stoppedBy();
      if (stoppedAfterReady !== undefined) throw stoppedAfterReady.reason;
      // The write's failure also rejects `ready` and `close`, where the loop sees it.
      writer.write(next.value).catch(() => undefined);
    }
    await writer.close();
  } catch (error) {
    const reason = stoppedBy()?.reason ?? error;
    await Promise.allSettled([reader.cancel(reason), writer.abort(reason)]);
    throw reason;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** The error the run rejects with: the TfpipeError behind the failure, whichever link saw it first. */
function runError(reason: unknown, results: readonly PromiseSettledResult<void>[]): TfpipeError {
  if (TfpipeError.is(reason)) return reason;
  for (const result of results) {
    if (result.status === 'rejected' && TfpipeError.is(result.reason)) return result.reason;
  }
  const message = reason instanceof Error ? reason.message : String(reason);
  return new TfpipeError('INTERNAL', `the run failed: ${message}`, {
    stage: STAGE,
    fatal: true,
    cause: reason,
  });
}

function summarise(
  source: ReadableStream<unknown>,
  stages: readonly TransformStream<unknown, unknown>[],
  sink: WritableStream<unknown>,
  counted: number | undefined,
  written: number,
  elapsedMs: number,
): RunSummary {
  const sourceReport = reportOf(source);
  const sinkReport = reportOf(sink);
  const reports: StageReport[] = [];
  for (const stream of [source, ...stages, sink]) {
    const report = reportOf(stream);
    if (report !== undefined) reports.push(report);
  }
  let skipped = 0;
  const skippedErrors: TfpipeError[] = [];
  const details: Record<string, unknown> = {};
  for (const report of reports) {
    skipped += report.skipped ?? 0;
    for (const error of report.skippedErrors ?? []) skippedErrors.push(error);
    if (report.details !== undefined) Object.assign(details, report.details);
  }
  return {
    recordsRead: counted ?? sourceReport?.records ?? 0,
    recordsWritten: written,
    skipped,
    skippedErrors,
    bytes: sinkReport?.bytes ?? 0,
    shards: sinkReport?.shards ?? [],
    elapsedMs,
    stages: reports,
    details,
  };
}

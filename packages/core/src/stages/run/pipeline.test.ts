import { describe, expect, it } from 'vitest';
import { attachReport, positionOf, reportOf, withPosition } from '../../contract/plugin-contract.js';
import { TfpipeError } from '../../errors/tfpipe-error.js';
import type { Example } from '../../model/example.js';
import { fromArray, slowSink } from '../../testing/index.js';
import { buildExamples } from '../build-examples.js';
import { definePipeline } from './define-pipeline.js';
import { filterRows } from '../filter-rows.js';
import { mapRows } from '../map-rows.js';
import { pipeline, run } from './pipeline.js';
import type { Progress } from './run-summary.js';
import { take } from '../take.js';

/** A source that records whether and why it was cancelled, like a file source releasing its handle. */
function trackedSource<T>(rows: Iterable<T>): ReadableStream<T> & { cancelled: () => unknown } {
  const iterator = rows[Symbol.iterator]();
  let reason: unknown = 'not cancelled';
  const stream = new ReadableStream<T>({
    pull(controller) {
      const next = iterator.next();
      if (next.done === true) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(why) {
      reason = why;
    },
  });
  return Object.assign(stream, { cancelled: () => reason });
}

function* counting(): Generator<{ n: number }> {
  for (let n = 0; ; n++) yield { n };
}

describe('run', () => {
  it('takes the row type from the source for a builder called in place', async () => {
    const sink = slowSink<Example>(0);
    await run(fromArray([{ n: '1' }]), buildExamples({ n: 'int64' }), sink);
    expect(sink.chunks).toHaveLength(1);
  });

  it('runs source → stages → sink and sums up the reports', async () => {
    const rows = [{ n: '1' }, { n: 'x' }, { n: '3' }];
    const sink = slowSink<Example>(0);
    attachReport(sink, () => ({
      stage: 'memorySink',
      records: sink.chunks.length,
      bytes: sink.chunks.length * 10,
      shards: [{ path: 'out-00000-of-00001', records: sink.chunks.length, bytes: 20 }],
      details: { schema: 'n:int64' },
    }));
    const summary = await run(fromArray(rows), buildExamples({ n: 'int64' }, { onError: 'skip' }), sink);
    expect(summary).toMatchObject({
      recordsRead: 3,
      recordsWritten: 2,
      skipped: 1,
      bytes: 20,
      details: { schema: 'n:int64' },
    });
    expect(summary.skippedErrors.map((error) => error.code)).toEqual(['FEATURE_TYPE']);
    expect(summary.shards).toEqual([{ path: 'out-00000-of-00001', records: 2, bytes: 20 }]);
    expect(summary.stages.map((report) => report.stage)).toEqual([
      'fromArray',
      'buildExamples',
      'memorySink',
    ]);
    expect(summary.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(sink.closed).toBe(true);
  });

  it('counts rows read itself when the source does not report', async () => {
    const summary = await run(
      trackedSource([1, 2, 3, 4]),
      filterRows((value: number) => value % 2 === 0),
      new WritableStream<number>(),
    );
    expect(summary).toMatchObject({ recordsRead: 4, recordsWritten: 2, bytes: 0, shards: [] });
  });

  it('rejects with the very TfpipeError a stage raised, cancels the source and aborts the sink', async () => {
    const rows = function* (): Generator<{ n: string }> {
      yield { n: '1' };
      yield withPosition({ n: '1.5' }, { line: 3 });
      yield* Array.from({ length: 100 }, () => ({ n: '2' }));
    };
    const source = trackedSource(rows());
    const sink = slowSink<Example>(0);
    const error = await run(source, buildExamples({ n: 'int64' }), sink).catch((reason: unknown) => reason);
    expect(TfpipeError.is(error) && error.code).toBe('FEATURE_TYPE');
    expect((error as TfpipeError).position).toEqual({ line: 3, field: 'n' });
    expect(source.cancelled()).toBe(error);
    expect(sink.abortReason).toBe(error);
    expect(sink.closed).toBe(false);
  });

  it('rejects with the TfpipeError the sink raised and cancels the source', async () => {
    const failure = new TfpipeError('DISK_FULL', 'no space left', { stage: 'memorySink', fatal: true });
    const source = trackedSource(counting());
    const sink = new WritableStream<unknown>({
      write() {
        throw failure;
      },
    });
    await expect(run(source, sink)).rejects.toBe(failure);
    expect(source.cancelled()).toBe(failure);
    const behindStages = trackedSource(counting());
    const failing = new WritableStream<unknown>({
      write() {
        throw failure;
      },
    });
    await expect(
      run(
        behindStages,
        mapRows((row: { n: number }) => row),
        take<{ n: number }>(100),
        failing,
      ),
    ).rejects.toBe(failure);
    expect(behindStages.cancelled()).not.toBe('not cancelled');
  });

  it('a sink failure stops a run whose source is waiting for input, and cancels the source', async () => {
    const failure = new TfpipeError('IO', 'write failed', { stage: 'memorySink', fatal: true });
    let cancelled: unknown = 'not cancelled';
    let sent = false;
    const stalled = new ReadableStream<number>({
      pull(controller) {
        if (sent) return new Promise<void>(() => undefined); // waits for input that never comes
        sent = true;
        controller.enqueue(1);
        return undefined;
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    const failing = new WritableStream<number>({
      write() {
        throw failure;
      },
    });
    await expect(run(stalled, failing)).rejects.toBe(failure);
    expect(cancelled).toBe(failure);
  });

  it('wraps a non-tfpipe exception as INTERNAL with the cause', async () => {
    const bug = new TypeError('bug in user code');
    const stage = mapRows(() => {
      throw bug;
    });
    const error = await run(fromArray([1]), stage, new WritableStream()).catch((reason: unknown) => reason);
    expect(TfpipeError.is(error) && error.code).toBe('INTERNAL');
    expect((error as TfpipeError).cause).toBe(bug);
  });

  it('aborting the signal cancels the source, aborts the sink and rejects with ABORTED', async () => {
    const controller = new AbortController();
    const source = trackedSource(counting());
    const sink = slowSink<unknown>(2);
    setTimeout(() => controller.abort(), 30);
    const error = await run(
      source,
      mapRows((row: { n: number }) => row),
      sink,
      { signal: controller.signal },
    ).catch((reason: unknown) => reason);
    expect(TfpipeError.is(error) && error.code).toBe('ABORTED');
    expect(source.cancelled()).toBe(error);
    expect(sink.abortReason).toBe(error);
    expect(sink.chunks.length).toBeGreaterThan(0);
  });

  it('a signal aborted before the run starts rejects at once without reading', async () => {
    const source = trackedSource(counting());
    const sink = slowSink<unknown>(0);
    const error = await run(source, sink, { signal: AbortSignal.abort() }).catch((reason: unknown) => reason);
    expect(TfpipeError.is(error) && error.code).toBe('ABORTED');
    expect(sink.chunks).toEqual([]);
  });

  it('reports progress while it runs and once at the end', async () => {
    const seen: Progress[] = [];
    const rows = Array.from({ length: 40 }, (_, n) => ({ n }));
    await run(fromArray(rows), slowSink(2), {
      onProgress: (progress) => seen.push(progress),
      progressIntervalMs: 10,
    });
    expect(seen.length).toBeGreaterThan(2);
    const last = seen[seen.length - 1]!;
    expect(last).toMatchObject({ records: 40, recordsRead: 40 });
    expect(last.recordsPerSecond).toBeGreaterThan(0);
    for (let index = 1; index < seen.length; index++)
      expect(seen[index]!.records).toBeGreaterThanOrEqual(seen[index - 1]!.records);
  });

  it('keeps the source at most a few rows ahead of a slow sink', async () => {
    const source = fromArray(Array.from({ length: 300 }, (_, n) => ({ n: String(n) })));
    let worst = 0;
    const sink = new WritableStream<Example>(
      {
        write(_, controller) {
          void controller;
          worst = Math.max(worst, reportOf(source)!.records! - written++);
          return new Promise((resolve) => setTimeout(resolve, 0));
        },
      },
      { highWaterMark: 1 },
    );
    let written = 0;
    await run(
      source,
      buildExamples({ n: 'int64' }),
      mapRows((example: Example) => example),
      sink,
    );
    expect(written).toBe(300);
    expect(worst).toBeLessThanOrEqual(12);
  });

  it('take(n) stops early and cancels an endless source', async () => {
    const source = trackedSource(counting());
    const sink = slowSink<{ n: number }>(0);
    const summary = await run(source, take<{ n: number }>(5), sink);
    expect(sink.chunks.map((row) => row.n)).toEqual([0, 1, 2, 3, 4]);
    expect(summary.recordsWritten).toBe(5);
    expect(source.cancelled()).not.toBe('not cancelled');
  });

  it('refuses to run a pipeline twice and checks its arguments', async () => {
    const composed = pipeline(fromArray([1]), new WritableStream<number>());
    await composed.run();
    await expect(composed.run()).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await expect(run(fromArray([1]), { progressIntervalMs: 0 } as never)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
    });
    expect(() => pipeline({} as never, new WritableStream())).toThrow(/ReadableStream/);
  });
});

describe('definePipeline', () => {
  it('runs the declarative form', async () => {
    const sink = slowSink<number>(0);
    const summary = await definePipeline({
      source: fromArray([1, 2, 3]),
      stages: [mapRows((value: number) => value * 10), take<number>(2)],
      sink,
    }).run();
    expect(sink.chunks).toEqual([10, 20]);
    expect(summary.recordsWritten).toBe(2);
  });

  it('fails to compile when a stage does not fit', () => {
    const check = (): void => {
      // @ts-expect-error -- mapRows expects strings, the source produces numbers
      definePipeline({
        source: fromArray([1]),
        stages: [mapRows((value: string) => value.length)],
        sink: new WritableStream<number>(),
      });
    };
    expect(typeof check).toBe('function');
  });
});

describe('pipeline typing', () => {
  it('fails to compile when a link does not fit, even for a subtype', () => {
    const check = (): void => {
      const numbers = fromArray([1, 2]);
      const forStrings = mapRows((value: string) => value);
      const needsB = new TransformStream<{ a: number; b: string }, string>();
      const toText = mapRows((value: number) => String(value));
      // @ts-expect-error -- a stage for strings after a source of numbers
      pipeline(numbers, forStrings, new WritableStream<string>());
      // @ts-expect-error -- rows lacking a field the stage needs
      pipeline(fromArray([{ a: 1 }]), needsB, new WritableStream<string>());
      // @ts-expect-error -- a sink for numbers after a stage of strings
      pipeline(numbers, toText, new WritableStream<number>());
      pipeline(
        numbers,
        toText,
        filterRows((text: string) => text !== ''),
        new WritableStream<unknown>(),
      );
    };
    expect(typeof check).toBe('function');
  });
});

describe('filterRows and mapRows', () => {
  it('keep the position of the rows they pass or derive', async () => {
    const row = withPosition({ a: 1 }, { line: 9 });
    const sink = slowSink<{ b: number }>(0);
    await run(
      fromArray([row, { a: 0 }]),
      filterRows((value: { a: number }) => value.a > 0),
      mapRows((value: { a: number }) => ({ b: value.a })),
      sink,
    );
    expect(sink.chunks).toEqual([{ b: 1 }]);
    expect(positionOf(sink.chunks[0])).toEqual({ line: 9 });
  });

  it('check their options when called', () => {
    expect(() => filterRows(undefined as never)).toThrow(/predicate/);
    expect(() => take(-1)).toThrow(/non-negative/);
  });
});

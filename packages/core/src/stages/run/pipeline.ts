import { TfpipeError } from '../../errors/tfpipe-error.js';
import { runStreams } from './run-streams.js';
import type { RunOptions, RunSummary } from './run-summary.js';

/**
 * What makes a stage fit the output before it: `unknown` (no constraint) when `Previous` is
 * assignable to `In`, else an object type naming both, which no stream has, so the call fails to
 * compile. Checked this way because `WritableStream`'s methods compare their chunk type bivariantly.
 */
export type Fits<Previous, In> = [Previous] extends [In]
  ? unknown
  : { readonly 'the previous stage produces': Previous; readonly 'but this stage accepts': In };

/**
 * A stage in a typed chain: a `TransformStream<In, Out>` whose input accepts `Previous`. The
 * `NoInfer<Previous>` part hands the row type to a generic stage factory called in place, such as
 * `buildExamples({...})`.
 */
export type StageOf<In, Out, Previous> = TransformStream<In, Out> &
  TransformStream<NoInfer<Previous>, unknown> &
  Fits<Previous, In>;

/** A sink in a typed chain: a `WritableStream<In>` that accepts `Previous`. */
export type SinkOf<In, Previous> = WritableStream<In> & Fits<Previous, In>;

/** A composed pipeline, ready to run once. */
export interface Pipeline {
  /**
   * Runs it to the end: resolves with the summary when the sink has closed, rejects with the
   * `TfpipeError` that stopped it (after cancelling the source and aborting the sink). Runs once.
   */
  run(options?: RunOptions): Promise<RunSummary>;
}

export function pipeline<Row, Written>(source: ReadableStream<Row>, sink: SinkOf<Written, Row>): Pipeline;
export function pipeline<Row, In1, Out1, Written>(
  source: ReadableStream<Row>,
  stage1: StageOf<In1, Out1, Row>,
  sink: SinkOf<Written, Out1>,
): Pipeline;
export function pipeline<Row, In1, Out1, In2, Out2, Written>(
  source: ReadableStream<Row>,
  stage1: StageOf<In1, Out1, Row>,
  stage2: StageOf<In2, Out2, Out1>,
  sink: SinkOf<Written, Out2>,
): Pipeline;
export function pipeline<Row, In1, Out1, In2, Out2, In3, Out3, Written>(
  source: ReadableStream<Row>,
  stage1: StageOf<In1, Out1, Row>,
  stage2: StageOf<In2, Out2, Out1>,
  stage3: StageOf<In3, Out3, Out2>,
  sink: SinkOf<Written, Out3>,
): Pipeline;
export function pipeline<Row, In1, Out1, In2, Out2, In3, Out3, In4, Out4, Written>(
  source: ReadableStream<Row>,
  stage1: StageOf<In1, Out1, Row>,
  stage2: StageOf<In2, Out2, Out1>,
  stage3: StageOf<In3, Out3, Out2>,
  stage4: StageOf<In4, Out4, Out3>,
  sink: SinkOf<Written, Out4>,
): Pipeline;
export function pipeline<Row, In1, Out1, In2, Out2, In3, Out3, In4, Out4, In5, Out5, Written>(
  source: ReadableStream<Row>,
  stage1: StageOf<In1, Out1, Row>,
  stage2: StageOf<In2, Out2, Out1>,
  stage3: StageOf<In3, Out3, Out2>,
  stage4: StageOf<In4, Out4, Out3>,
  stage5: StageOf<In5, Out5, Out4>,
  sink: SinkOf<Written, Out5>,
): Pipeline;
export function pipeline<Row, In1, Out1, In2, Out2, In3, Out3, In4, Out4, In5, Out5, In6, Out6, Written>(
  source: ReadableStream<Row>,
  stage1: StageOf<In1, Out1, Row>,
  stage2: StageOf<In2, Out2, Out1>,
  stage3: StageOf<In3, Out3, Out2>,
  stage4: StageOf<In4, Out4, Out3>,
  stage5: StageOf<In5, Out5, Out4>,
  stage6: StageOf<In6, Out6, Out5>,
  sink: SinkOf<Written, Out6>,
): Pipeline;
export function pipeline<
  Row,
  In1,
  Out1,
  In2,
  Out2,
  In3,
  Out3,
  In4,
  Out4,
  In5,
  Out5,
  In6,
  Out6,
  In7,
  Out7,
  Written,
>(
  source: ReadableStream<Row>,
  stage1: StageOf<In1, Out1, Row>,
  stage2: StageOf<In2, Out2, Out1>,
  stage3: StageOf<In3, Out3, Out2>,
  stage4: StageOf<In4, Out4, Out3>,
  stage5: StageOf<In5, Out5, Out4>,
  stage6: StageOf<In6, Out6, Out5>,
  stage7: StageOf<In7, Out7, Out6>,
  sink: SinkOf<Written, Out7>,
): Pipeline;
export function pipeline<
  Row,
  In1,
  Out1,
  In2,
  Out2,
  In3,
  Out3,
  In4,
  Out4,
  In5,
  Out5,
  In6,
  Out6,
  In7,
  Out7,
  In8,
  Out8,
  Written,
>(
  source: ReadableStream<Row>,
  stage1: StageOf<In1, Out1, Row>,
  stage2: StageOf<In2, Out2, Out1>,
  stage3: StageOf<In3, Out3, Out2>,
  stage4: StageOf<In4, Out4, Out3>,
  stage5: StageOf<In5, Out5, Out4>,
  stage6: StageOf<In6, Out6, Out5>,
  stage7: StageOf<In7, Out7, Out6>,
  stage8: StageOf<In8, Out8, Out7>,
  sink: SinkOf<Written, Out8>,
): Pipeline;
/**
 * Composes a source, up to 8 stages and a sink into a {@link Pipeline}. Type-checked link by link:
 * a stage that does not accept what the one before produces fails to compile.
 *
 * @example
 * ```ts
 * const summary = await pipeline(csvSource({ path: 'a.csv' }), buildExamples({ age: 'int64' }), serializeExamples(), tfrecordSink({ path: 'a.tfrecord' })).run();
 * ```
 */
export function pipeline(...parts: readonly unknown[]): Pipeline {
  const { source, stages, sink } = split(parts, 'pipeline');
  return createPipeline(source, stages, sink);
}

// Longest first: with the optional options last, `run(source, stage, sink)` must try the stage reading first.
export function run<
  Row,
  In1,
  Out1,
  In2,
  Out2,
  In3,
  Out3,
  In4,
  Out4,
  In5,
  Out5,
  In6,
  Out6,
  In7,
  Out7,
  In8,
  Out8,
  Written,
>(
  source: ReadableStream<Row>,
  stage1: StageOf<In1, Out1, Row>,
  stage2: StageOf<In2, Out2, Out1>,
  stage3: StageOf<In3, Out3, Out2>,
  stage4: StageOf<In4, Out4, Out3>,
  stage5: StageOf<In5, Out5, Out4>,
  stage6: StageOf<In6, Out6, Out5>,
  stage7: StageOf<In7, Out7, Out6>,
  stage8: StageOf<In8, Out8, Out7>,
  sink: SinkOf<Written, Out8>,
  options?: RunOptions,
): Promise<RunSummary>;
export function run<
  Row,
  In1,
  Out1,
  In2,
  Out2,
  In3,
  Out3,
  In4,
  Out4,
  In5,
  Out5,
  In6,
  Out6,
  In7,
  Out7,
  Written,
>(
  source: ReadableStream<Row>,
  stage1: StageOf<In1, Out1, Row>,
  stage2: StageOf<In2, Out2, Out1>,
  stage3: StageOf<In3, Out3, Out2>,
  stage4: StageOf<In4, Out4, Out3>,
  stage5: StageOf<In5, Out5, Out4>,
  stage6: StageOf<In6, Out6, Out5>,
  stage7: StageOf<In7, Out7, Out6>,
  sink: SinkOf<Written, Out7>,
  options?: RunOptions,
): Promise<RunSummary>;
export function run<Row, In1, Out1, In2, Out2, In3, Out3, In4, Out4, In5, Out5, In6, Out6, Written>(
  source: ReadableStream<Row>,
  stage1: StageOf<In1, Out1, Row>,
  stage2: StageOf<In2, Out2, Out1>,
  stage3: StageOf<In3, Out3, Out2>,
  stage4: StageOf<In4, Out4, Out3>,
  stage5: StageOf<In5, Out5, Out4>,
  stage6: StageOf<In6, Out6, Out5>,
  sink: SinkOf<Written, Out6>,
  options?: RunOptions,
): Promise<RunSummary>;
export function run<Row, In1, Out1, In2, Out2, In3, Out3, In4, Out4, In5, Out5, Written>(
  source: ReadableStream<Row>,
  stage1: StageOf<In1, Out1, Row>,
  stage2: StageOf<In2, Out2, Out1>,
  stage3: StageOf<In3, Out3, Out2>,
  stage4: StageOf<In4, Out4, Out3>,
  stage5: StageOf<In5, Out5, Out4>,
  sink: SinkOf<Written, Out5>,
  options?: RunOptions,
): Promise<RunSummary>;
export function run<Row, In1, Out1, In2, Out2, In3, Out3, In4, Out4, Written>(
  source: ReadableStream<Row>,
  stage1: StageOf<In1, Out1, Row>,
  stage2: StageOf<In2, Out2, Out1>,
  stage3: StageOf<In3, Out3, Out2>,
  stage4: StageOf<In4, Out4, Out3>,
  sink: SinkOf<Written, Out4>,
  options?: RunOptions,
): Promise<RunSummary>;
export function run<Row, In1, Out1, In2, Out2, In3, Out3, Written>(
  source: ReadableStream<Row>,
  stage1: StageOf<In1, Out1, Row>,
  stage2: StageOf<In2, Out2, Out1>,
  stage3: StageOf<In3, Out3, Out2>,
  sink: SinkOf<Written, Out3>,
  options?: RunOptions,
): Promise<RunSummary>;
export function run<Row, In1, Out1, In2, Out2, Written>(
  source: ReadableStream<Row>,
  stage1: StageOf<In1, Out1, Row>,
  stage2: StageOf<In2, Out2, Out1>,
  sink: SinkOf<Written, Out2>,
  options?: RunOptions,
): Promise<RunSummary>;
export function run<Row, In1, Out1, Written>(
  source: ReadableStream<Row>,
  stage1: StageOf<In1, Out1, Row>,
  sink: SinkOf<Written, Out1>,
  options?: RunOptions,
): Promise<RunSummary>;
export function run<Row, Written>(
  source: ReadableStream<Row>,
  sink: SinkOf<Written, Row>,
  options?: RunOptions,
): Promise<RunSummary>;
/** `pipeline(source, ...stages, sink).run(options)` in one call; the options come last and are optional. */
export function run(...parts: readonly unknown[]): Promise<RunSummary> {
  const last = parts[parts.length - 1];
  const options = isWritable(last) ? undefined : (last as RunOptions | undefined);
  const streams = isWritable(last) ? parts : parts.slice(0, -1);
  try {
    const { source, stages, sink } = split(streams, 'run');
    return runStreams(source, stages, sink, options);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** Wraps checked streams into a pipeline object that runs once. */
export function createPipeline(
  source: ReadableStream<unknown>,
  stages: readonly TransformStream<unknown, unknown>[],
  sink: WritableStream<unknown>,
): Pipeline {
  let ran = false;
  return {
    run(options?: RunOptions) {
      if (ran)
        return Promise.reject(
          new TfpipeError('INVALID_OPTION', 'a pipeline runs once: its streams are used up', {
            stage: 'run',
            fatal: true,
          }),
        );
      ran = true;
      return runStreams(source, stages, sink, options);
    },
  };
}

function split(
  parts: readonly unknown[],
  name: string,
): {
  source: ReadableStream<unknown>;
  stages: TransformStream<unknown, unknown>[];
  sink: WritableStream<unknown>;
} {
  const source = parts[0];
  const sink = parts[parts.length - 1];
  if (!isReadable(source))
    throw invalidPart(name, 'the first argument must be a ReadableStream (the source)');
  if (parts.length < 2 || !isWritable(sink))
    throw invalidPart(name, 'the last stream must be a WritableStream (the sink)');
  const stages = parts.slice(1, -1);
  stages.forEach((stage, index) => {
    if (!isTransform(stage))
      throw invalidPart(name, `stage ${index + 1} must be a TransformStream ({ readable, writable })`);
  });
  return { source, stages: stages as TransformStream<unknown, unknown>[], sink };
}

function invalidPart(name: string, detail: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', `${name}(): ${detail}`, { stage: 'run', fatal: true });
}

/** Duck-typed so streams from another realm or polyfill pass. */
export function isReadable(value: unknown): value is ReadableStream<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as ReadableStream).getReader === 'function'
  );
}

export function isWritable(value: unknown): value is WritableStream<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as WritableStream).getWriter === 'function'
  );
}

export function isTransform(value: unknown): value is TransformStream<unknown, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const { readable, writable } = value as Partial<TransformStream>;
  return isReadable(readable) && isWritable(writable);
}

import { TfpipeError } from '../../errors/tfpipe-error.js';
import type { Fits, Pipeline } from './pipeline.js';
import { createPipeline, isReadable, isTransform, isWritable } from './pipeline.js';

/**
 * A pipeline as one object: the declarative form `pipeline(...)` also has, and the shape a config
 * file describes once its plugin names are resolved to streams.
 */
export interface PipelineDefinition<Row, Stages extends readonly TransformStream<never, unknown>[], Written> {
  /** Where the rows come from. */
  readonly source: ReadableStream<Row>;
  /** The stages in order. @default none */
  readonly stages?: Stages;
  /** Where the records go. */
  readonly sink: WritableStream<Written>;
}

/**
 * Checks a tuple of stages link by link; an array whose length is not known (built at run time from
 * a config file) is not checked.
 */
export type ChainFits<Previous, Stages extends readonly unknown[], Written> = number extends Stages['length']
  ? unknown
  : Stages extends readonly [infer First, ...infer Rest]
    ? First extends TransformStream<infer In, infer Out>
      ? [Previous] extends [In]
        ? ChainFits<Out, Rest, Written>
        : Fits<Previous, In>
      : unknown
    : Fits<Previous, Written>;

/**
 * The declarative form of {@link pipeline}: `definePipeline({ source, stages, sink }).run(options)`.
 * A literal tuple of stages is type-checked link by link like `pipeline(...)`.
 */
export function definePipeline<
  Row,
  const Stages extends readonly TransformStream<never, unknown>[] = [],
  Written = unknown,
>(definition: PipelineDefinition<Row, Stages, Written> & ChainFits<Row, Stages, Written>): Pipeline {
  const { source, stages = [], sink } = definition as PipelineDefinition<Row, Stages, Written>;
  if (!isReadable(source)) throw invalid('source must be a ReadableStream');
  if (!isWritable(sink)) throw invalid('sink must be a WritableStream');
  if (!Array.isArray(stages)) throw invalid('stages must be an array of TransformStreams');
  stages.forEach((stage, index) => {
    if (!isTransform(stage)) throw invalid(`stages[${index}] must be a TransformStream`);
  });
  return createPipeline(source, stages as readonly TransformStream<unknown, unknown>[], sink);
}

function invalid(detail: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', `definePipeline(): ${detail}`, { stage: 'run', fatal: true });
}

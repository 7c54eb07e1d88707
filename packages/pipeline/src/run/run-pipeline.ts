import { basename } from 'node:path';
import {
  definePipeline,
  FeatureStatsCollector,
  unbatch,
  type PayloadType,
  type Progress,
  type RunSummary,
  type ShardSummary,
} from '@tfpipe/core';
import type { LoadedPipeline } from '../config/load-pipeline.js';
import { loadPipelineInput, type PipelineInput } from '../config/load-pipeline-input.js';
import { chainWritable } from '../stages/chain-writable.js';
import { OutputTransaction } from './output-transaction.js';
import type { ReaderSpecFormat } from '../config/pipeline-config.js';
import {
  exampleStage,
  fullShuffle,
  needsFields,
  rowStages,
  shuffleStage,
  statsTap,
} from '../stages/pipeline-stages.js';
import type { WrittenSplit } from './tfds-metadata.js';

/** Options of {@link runPipeline}. */
export interface RunPipelineOptions {
  /**
   * The directory a pipeline file's path, and the relative paths of a config object, resolve
   * against (paths inside a file resolve against the file). @default process.cwd()
   */
  readonly cwd?: string;
  /** Replace an output directory's old shards (all of them: old and new never mix). @default false */
  readonly overwrite?: boolean;
  /** Aborting it stops the run and removes every temporary file. */
  readonly signal?: AbortSignal;
  /** Progress while the run goes. */
  readonly onProgress?: (progress: Progress) => void;
}

/** What a finished run did. */
export interface PipelineResult {
  readonly summary: RunSummary;
  /** The output directory (undefined for a single-file sink). */
  readonly directory: string | undefined;
  /** Shards per split (one `train`-named entry, or the sink's prefix, without a split). */
  readonly splits: readonly WrittenSplit[];
  /** Reader specs and the source's side files written beside the output (names in `directory`). */
  readonly files: readonly string[];
  /** Old output files removed under `overwrite` (the previous shard set of each prefix written). */
  readonly removed: readonly string[];
  /** Temporaries of another host or an older tfpipe found in the output directory and left alone. */
  readonly foreignTemporaries: readonly string[];
}

/** The reader formats a run writes: the config's, else `tf` for a directory of shards. */
export function readerFormats(
  loaded: LoadedPipeline,
  directory: string | undefined,
): readonly ReaderSpecFormat[] {
  if (directory === undefined) return [];
  return loaded.config.readerSpec ?? ['tf'];
}

/**
 * Runs a pipeline (a file path, a config object or a loaded pipeline): source → decode (if needed)
 * → transforms → split → per split: Examples → statistics → shuffle → sink. The sinks refuse
 * existing output before writing (unless `overwrite`); shards, reader specs and the source's side
 * files are all written under temporary names and put in place together only when every one of
 * them is complete (then the old output they replace goes). On any failure no shard, side file,
 * temporary or spill file is left behind.
 *
 * @throws TfpipeError with the code and position of the first failure (a config error before
 *   anything is read, a record error under `onError: 'fail'`, an I/O error).
 */
export async function runPipeline<SourceOptions, Row, SinkOptions>(
  pipeline: PipelineInput<SourceOptions, Row, SinkOptions>,
  options: RunPipelineOptions = {},
): Promise<PipelineResult> {
  const loaded = await loadPipelineInput(pipeline, options.cwd);
  const directory = loaded.sink.outputDirectory(loaded.sinkOptions, loaded.context);
  const transaction = new OutputTransaction();
  try {
    return await runAndCommit(loaded, options, directory, transaction);
  } catch (error) {
    await transaction.discard();
    throw error;
  }
}

async function runAndCommit(
  loaded: LoadedPipeline,
  options: RunPipelineOptions,
  directory: string | undefined,
  transaction: OutputTransaction,
): Promise<PipelineResult> {
  const { sink, sinkOptions, context } = loaded;
  const overwrite = options.overwrite ?? false;
  const formats = readerFormats(loaded, directory);
  // A source whose fields nothing reads may emit Examples itself (CSV encodes them straight from cells).
  const opened = await loaded.source.create(loaded.sourceOptions, {
    ...context,
    fieldsRead: needsFields(loaded),
  });
  const payloadType: PayloadType = opened.payloadType ?? 'Example';
  // The split's router, the full shuffle and the reader files load only for a pipeline that uses them.
  const external = await fullShuffle(loaded);
  const router = loaded.split === undefined ? undefined : (await import('../stages/route-rows.js')).routeRows;
  const collector = formats.length > 0 ? new FeatureStatsCollector() : undefined;
  const branch = (split: string | undefined): WritableStream<unknown> => {
    const stages = [
      exampleStage(loaded, opened),
      collector && statsTap(collector, payloadType),
      // The shuffle buffer shuffles chunks: records, not the batches a source may emit (the full
      // shuffle takes batches apart itself).
      loaded.config.shuffle !== undefined && loaded.config.shuffle.full !== true ? unbatch() : undefined,
      shuffleStage(loaded, external),
    ];
    const writable = sink.create(sinkOptions, {
      ...context,
      payloadType,
      overwrite,
      deferOutput: transaction.defer,
      ...(split === undefined ? {} : { split }),
    });
    return chainWritable(
      stages.filter((stage) => stage !== undefined),
      writable as WritableStream<unknown>,
      split ?? 'sink',
    );
  };
  const split = loaded.split;
  const writable =
    split === undefined || router === undefined
      ? branch(undefined)
      : router<unknown>({
          route: (row, index) => split.assign(row, index),
          open: branch,
          names: split.names,
          onError: context.onError,
        });
  let stages: TransformStream<unknown, unknown>[];
  try {
    stages = rowStages(loaded, payloadType);
  } catch (error) {
    await Promise.allSettled([opened.readable.cancel(error), writable.abort(error)]);
    throw error;
  }
  const ran = await definePipeline({ source: opened.readable, stages, sink: writable }).run({
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  // Rows the split dropped (skip policy) reached the router but no sink: count what the shards hold.
  const summary =
    ran.shards.length > 0
      ? { ...ran, recordsWritten: ran.shards.reduce((sum, shard) => sum + shard.records, 0) }
      : ran;
  const splits = writtenSplits(loaded, summary, directory);
  const files: string[] = [];
  if (directory !== undefined) {
    const staging = await transaction.stagingDirectory(directory);
    if (collector !== undefined) {
      const { writeReaderFiles } = await import('./reader-files.js');
      const compression = compressionOf(summary.details.compression);
      const name = loaded.config.name ?? basename(directory);
      files.push(
        ...(await writeReaderFiles(
          staging,
          formats,
          collector.result(payloadType),
          splits,
          compression,
          name,
        )),
      );
    }
    const { writeSideFiles } = await import('./write-side-files.js');
    files.push(...(await writeSideFiles(staging, loaded.source, opened, files)));
    transaction.stage(staging, directory, files);
  }
  const removed = await transaction.commit();
  const foreign = summary.details.foreignTemporaries;
  const foreignTemporaries = Array.isArray(foreign) ? (foreign as string[]) : [];
  return { summary, directory, splits, files, removed, foreignTemporaries };
}

/** The sink's compression as its report gives it, for the reader code. */
function compressionOf(value: unknown): 'none' | 'gzip' | 'zlib' {
  return value === 'gzip' || value === 'zlib' ? value : 'none';
}

function writtenSplits(
  loaded: LoadedPipeline,
  summary: RunSummary,
  directory: string | undefined,
): WrittenSplit[] {
  const bySplit = summary.details.splits as Record<string, { shards: readonly ShardSummary[] }> | undefined;
  if (loaded.split !== undefined && bySplit !== undefined) {
    return Object.entries(bySplit).map(([name, { shards }]) => ({ name, shards }));
  }
  return directory === undefined ? [] : [{ name: 'train', shards: summary.shards }];
}

import { relative } from 'node:path';
import {
  decodeExample,
  decodeSequenceExample,
  exampleToJsonText,
  FeatureStatsCollector,
  isSequenceExample,
  mapRows,
  sequenceExampleToJsonText,
  take,
  tensorflowSpec,
  type Example,
  type SequenceExample,
} from '@tfpipe/core';
import type { LoadedPipeline } from '../config/load-pipeline.js';
import { readerFormats } from './run-pipeline.js';
import { READER_FILES } from './reader-files.js';
import { exampleStage, rowStages } from '../stages/pipeline-stages.js';

/** Options of {@link dryRun}. */
export interface DryRunOptions {
  /** Rows read to infer the schema (after the transforms). @default 100 */
  readonly sample?: number;
  /** Examples printed. @default 3 */
  readonly show?: number;
  /** Directory relative paths in the plan are shown against. */
  readonly cwd: string;
}

function describeSplit(loaded: LoadedPipeline): string | undefined {
  const split = loaded.config.split;
  if (split === undefined) return undefined;
  if ('ratios' in split) {
    const ratios = Object.entries(split.ratios)
      .map(([name, ratio]) => `${name} ${ratio}`)
      .join(', ');
    return `by hash of "${split.key}" (FNV-1a 64 + fmix64): ${ratios}`;
  }
  return `by the value of "${split.column}"${split.names === undefined ? '' : ` (${split.names.join(', ')})`}`;
}

/** The plan of a loaded pipeline, one line per part. */
export function planLines(loaded: LoadedPipeline, cwd: string): string[] {
  const { config, source, sink } = loaded;
  const lines = [`pipeline ${loaded.file ?? '(code)'}`];
  lines.push(`  source     ${source.name}: ${source.description}  ${JSON.stringify(loaded.sourceOptions)}`);
  for (const transform of loaded.transforms) lines.push(`  transform  ${transform.describe}`);
  const split = describeSplit(loaded);
  if (split !== undefined) lines.push(`  split      ${split}`);
  const spec = config.spec;
  lines.push(
    `  spec       ${
      spec === undefined
        ? 'from the source'
        : Object.entries(spec)
            .map(([name, entry]) => `${name}: ${typeof entry === 'string' ? entry : entry.kind}`)
            .join(', ')
    }`,
  );
  const shuffle = config.shuffle;
  if (shuffle !== undefined) {
    lines.push(
      shuffle.full === true
        ? `  shuffle    full: runs of ${String(shuffle.memory ?? '256M')} spilled to temporary files and merged, seed ${shuffle.seed ?? 0}`
        : `  shuffle    buffer of ${shuffle.buffer ?? 10000} records, seed ${shuffle.seed ?? 0}`,
    );
  }
  const directory = sink.outputDirectory(loaded.sinkOptions, loaded.context);
  const where = directory === undefined ? '' : ` → ${relative(cwd, directory) || '.'}/`;
  lines.push(`  sink       ${sink.name}${where}  ${JSON.stringify(loaded.sinkOptions)}`);
  const formats = readerFormats(loaded, directory);
  if (formats.length > 0)
    lines.push(`  reader     ${formats.flatMap((format) => READER_FILES[format]).join(', ')}`);
  lines.push(`  on error   ${loaded.context.onError}`);
  return lines;
}

/**
 * Validates and samples without writing: opens the source, runs the transforms on the first rows,
 * assigns their splits, builds their Examples and infers the reader spec from them. The sink is
 * never created.
 */
export async function dryRun(
  loaded: LoadedPipeline,
  options: DryRunOptions,
): Promise<{ lines: string[]; examples: (Example | SequenceExample)[] }> {
  const opened = await loaded.source.create(loaded.sourceOptions, loaded.context);
  const payloadType = opened.payloadType ?? 'Example';
  const counts = new Map<string, number>();
  let stream = opened.readable as ReadableStream<unknown>;
  for (const stage of rowStages(loaded, payloadType)) stream = stream.pipeThrough(stage);
  stream = stream.pipeThrough(take(options.sample ?? 100));
  const split = loaded.split;
  if (split !== undefined) {
    stream = stream.pipeThrough(
      mapRows((row: unknown, index: number) => {
        const name = split.assign(row, index);
        counts.set(name, (counts.get(name) ?? 0) + 1);
        return row;
      }),
    );
  }
  const build = exampleStage(loaded, opened);
  if (build !== undefined) stream = stream.pipeThrough(build);
  const chunks: unknown[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  const records = chunks.map((record) =>
    record instanceof Uint8Array
      ? payloadType === 'SequenceExample'
        ? decodeSequenceExample(record)
        : decodeExample(record)
      : (record as Example | SequenceExample),
  );
  const collector = new FeatureStatsCollector();
  for (const record of records) collector.add(record);
  const lines = planLines(loaded, options.cwd);
  lines.push(
    '',
    `sampled ${records.length} record(s)${counts.size > 0 ? `: ${[...counts].map(([name, count]) => `${name} ${count}`).join(', ')}` : ''}`,
  );
  lines.push('', tensorflowSpec(collector.result(payloadType)).trimEnd(), '');
  const shown = records.slice(0, options.show ?? 3);
  lines.push(`first ${shown.length} record(s):`);
  for (const record of shown) {
    lines.push(isSequenceExample(record) ? sequenceExampleToJsonText(record) : exampleToJsonText(record));
  }
  lines.push('', 'dry run: nothing was written');
  return { lines, examples: records };
}

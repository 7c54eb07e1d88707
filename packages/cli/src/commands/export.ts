import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import { tfrecordDataset, type Tensor } from '@tfpipe/dataset/node';
import type { FlagValues } from '../command.js';
import { checkNewFile } from '../config/output-guard.js';
import { booleanFlag, integerFlag, requirePositionals } from '../flags.js';
import { writeLine, type CliIo } from '../io.js';
import { ttyProgress } from '../progress.js';
import { columnCells, exportColumns } from './export-columns.js';
import { rowWriter, type ExportFormat } from './export-writers.js';
import { readOptions } from './read-options.js';
import { readSpecFlag } from './spec-file.js';
import { inCwd, tfrecordFiles } from './tfrecord-files.js';

/** Rows per row group (and per parsed batch) without `--row-group`. */
const DEFAULT_ROW_GROUP = 10_000;

const FORMATS: Readonly<Record<string, ExportFormat>> = {
  '.parquet': 'parquet',
  '.csv': 'csv',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
};

function usage(detail: string, file?: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', detail, {
    stage: 'cli',
    fatal: true,
    ...(file === undefined ? {} : { position: { file } }),
  });
}

function rowsOf(tensor: Tensor): number {
  if (tensor.kind === 'dense') return tensor.shape[0]!;
  if (tensor.kind === 'sparse') return tensor.denseShape[0]!;
  return tensor.rowSplits[0]!.length - 1;
}

/**
 * `tfpipe export FILE... OUT --spec SPEC`: the records parsed with the spec, streamed out as Parquet,
 * CSV or JSON Lines one batch (row group) at a time, into a temporary file renamed to OUT at the end.
 */
export async function exportFiles(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  requirePositionals(positionals, 'FILE... OUT (the TFRecord files, then the output file)', 2);
  const typed = positionals.at(-1)!;
  const format = FORMATS[extname(typed).toLowerCase()];
  if (format === undefined)
    throw usage('OUT must end in .parquet, .csv or .jsonl (it picks the format)', typed);
  const out = inCwd(io, typed);
  const files = await tfrecordFiles(positionals.slice(0, -1), 'FILE to export', 'export', io);
  const given = await readSpecFlag(values, io);
  if (given === undefined)
    throw usage('--spec FILE is required (tfpipe schema FILE --format spec writes one)');
  if (given.spec.featureLists !== undefined)
    throw usage('--spec: export reads Examples; this spec has featureLists (SequenceExamples)', given.file);
  const columns = exportColumns(given.spec.features, given.file);
  if (columns.length === 0) throw usage('--spec names no features: there is nothing to export', given.file);
  const rowGroup = integerFlag(values, 'row-group') ?? DEFAULT_ROW_GROUP;
  await checkNewFile(out, {
    flag: 'OUT',
    overwrite: booleanFlag(values, 'overwrite'),
    inputs: [...files, given.file],
  });

  const { compression, maxRecordBytes } = readOptions(values);
  const dataset = tfrecordDataset(files, {
    compression,
    ...(maxRecordBytes === undefined ? {} : { maxRecordBytes }),
  });
  const temporary = join(
    dirname(out),
    `.${basename(out)}.tfpipe-tmp-${process.pid}-${randomBytes(6).toString('hex')}`,
  );
  const progress = ttyProgress(io.stderr, booleanFlag(values, 'quiet'));
  const started = Date.now();
  let rows = 0;
  let groups = 0;
  // Ctrl-C or a kill (from before the file exists): the temporary file goes, then the signal does what it would have done.
  const onSignal = (signal: NodeJS.Signals): void => {
    stopListening();
    try {
      unlinkSync(temporary);
    } catch {
      // Already gone.
    }
    process.kill(process.pid, signal);
  };
  const stopListening = (): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const handle = await open(temporary, 'wx').catch((error: unknown) => {
    stopListening();
    throw error;
  });
  try {
    const writer = rowWriter(format, handle, columns);
    for await (const batch of dataset.parse(given.spec.features, { batchSize: rowGroup })) {
      const tensors = batch as Readonly<Record<string, Tensor>>;
      const count = rowsOf(tensors[columns[0]!.name]!);
      const cells = columns.map((column) => columnCells(column, tensors[column.name]!, count));
      await writer.write(cells, count, rows);
      rows += count;
      groups++;
      const elapsedMs = Date.now() - started;
      progress.onProgress({
        records: rows,
        recordsRead: rows,
        bytes: writer.bytes,
        bytesRead: dataset.report().bytes ?? 0,
        currentShard: typed,
        recordsPerSecond: elapsedMs > 0 ? (rows * 1000) / elapsedMs : 0,
        elapsedMs,
      });
    }
    await writer.finish();
    await handle.datasync();
    await handle.close();
    await rename(temporary, out);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temporary).catch(() => undefined);
    throw error;
  } finally {
    stopListening();
    progress.done();
  }
  await writeLine(
    io.stdout,
    `exported ${rows} rows of ${files.length} file${files.length === 1 ? '' : 's'} to ${typed} (${format}${
      format === 'parquet' ? `, ${groups} row group${groups === 1 ? '' : 's'}` : ''
    })`,
  );
  return 0;
}

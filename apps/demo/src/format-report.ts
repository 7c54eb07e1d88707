import type { RunSummary } from '@tfpipe/core';
import type { ReadBack } from './read-back.js';

/** One output of a pipeline (a split, or the whole dataset) and the summary of the run that wrote it. */
export interface DatasetOutput {
  readonly label: string;
  readonly summary: RunSummary;
  /** Records, shards and bytes of this output when the run wrote several (splits). @default the run's */
  readonly records?: number;
  readonly shards?: number;
  readonly bytes?: number;
}

/** Everything the demo found about one pipeline. */
export interface DatasetReport {
  readonly title: string;
  readonly outputs: readonly DatasetOutput[];
  readonly readBack: ReadBack;
  readonly files: readonly string[];
}

/** `1.2 MiB`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** The run's rate: all records it wrote over its wall time. */
function rate(summary: RunSummary): string {
  const perSecond = summary.recordsWritten / Math.max(summary.elapsedMs / 1000, 1e-3);
  return `${Math.round(perSecond).toLocaleString('en-US')} rec/s`;
}

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  '),
  );
}

/** The printed block of one pipeline: summary table, read-back verdict, reader spec and file list. */
export function formatReport(report: DatasetReport, relative: (file: string) => string): string {
  const rows = [
    ['output', 'records', 'shards', 'bytes', 'rate', 'skipped'],
    ...report.outputs.map(({ label, summary, records, shards, bytes }) => [
      label,
      String(records ?? summary.recordsWritten),
      String(shards ?? summary.shards.length),
      formatBytes(bytes ?? summary.bytes),
      rate(summary),
      String(summary.skipped),
    ]),
  ];
  const { readBack } = report;
  const verdict = readBack.ok
    ? `read back: ${readBack.records} records, ${formatBytes(readBack.bytes)}, every CRC verified`
    : `read back FAILED: ${readBack.problem ?? 'unknown problem'}`;
  return [
    `== ${report.title}`,
    ...table(rows).map((line) => `  ${line}`),
    `  ${verdict}`,
    '',
    '  Read it in TensorFlow:',
    ...readBack.tensorflowSpec
      .trimEnd()
      .split('\n')
      .map((line) => `    ${line}`),
    '',
    '  Files:',
    ...report.files.map((file) => `    ${relative(file)}`),
    '',
  ].join('\n');
}

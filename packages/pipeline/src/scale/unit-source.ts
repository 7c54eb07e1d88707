import { open } from 'node:fs/promises';
import { reportOf, TfpipeError, type StageReport } from '@tfpipe/core';
import {
  attachReport,
  type OpenedSource,
  type PluginContext,
  type SourcePluginDefinition,
} from '@tfpipe/core/plugin';
import { readError } from '@tfpipe/node-utils';
import { mergeReports } from '../stages/merge-reports.js';
import type { PlanUnit, ScalePlan } from './plan-types.js';

/** Skipped errors a report of several units keeps, as one source keeps them (the count stays exact). */
export const KEPT_SKIPPED_ERRORS = 100;

/** Bytes per read of a CSV range. */
const RANGE_READ_BYTES = 64 * 1024;

/** The bytes `[0, headerEnd)` then `[start, end)` of a file, as one stream. */
function rangeStream(
  path: string,
  pieces: readonly (readonly [number, number])[],
): ReadableStream<Uint8Array> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  let piece = 0;
  let position = pieces[0]?.[0] ?? 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        handle ??= await open(path, 'r');
        while (piece < pieces.length && position >= pieces[piece]![1]) {
          piece++;
          position = pieces[piece]?.[0] ?? 0;
        }
        if (piece >= pieces.length) {
          await handle.close();
          controller.close();
          return;
        }
        const length = Math.min(RANGE_READ_BYTES, pieces[piece]![1] - position);
        const buffer = new Uint8Array(length);
        const { bytesRead } = await handle.read(buffer, 0, length, position);
        if (bytesRead === 0) throw new Error(`the file ended at byte ${position}, before the planned range`);
        position += bytesRead;
        controller.enqueue(buffer.subarray(0, bytesRead));
      } catch (error) {
        await handle?.close().catch(() => undefined);
        throw readError(error, path, 'work', 'reading a planned range');
      }
    },
    async cancel() {
      await handle?.close();
    },
  });
}

/** The source options that make the plugin read exactly one unit. */
function unitOptions(plan: ScalePlan, baseOptions: object, unit: PlanUnit): object {
  const {
    path: _path,
    paths: _paths,
    schemaFile: _schemaFile,
    ...rest
  } = baseOptions as Record<string, unknown>;
  const { labelMap: _labelMap, ...fixed } = plan.sourceOptions;
  const options = { ...rest, ...fixed };
  // Every images unit of a shard is read by one image source (see unitSource).
  if (unit.kind === 'images') return { ...options, ranges: [[unit.start, unit.end]] };
  const { path } = plan.inputs[unit.input]!;
  if (unit.kind === 'rowGroup') return { ...options, path, rowGroups: [unit.rowGroup] };
  if (unit.kind === 'file') return { ...options, path };
  const pieces: [number, number][] =
    unit.start === unit.headerEnd
      ? [[0, unit.end]]
      : [
          [0, unit.headerEnd],
          [unit.start, unit.end],
        ];
  // The CSV plugin passes keys it does not take from files (stream, fileName) on to its reader.
  // Line and row positions count in the whole file, from where the range starts.
  const streamStart = { line: unit.line, row: unit.row };
  return { ...options, stream: rangeStream(path, pieces), fileName: path, streamStart };
}

/**
 * An error of a CSV range's reader, its byte offset counted in the whole file: the reader counts in
 * its stream, the header bytes `[0, headerEnd)` then the range `[start, end)`.
 */
function inWholeFile(error: unknown, unit: PlanUnit | undefined): unknown {
  if (unit?.kind !== 'bytes' || unit.start === unit.headerEnd || !TfpipeError.is(error)) return error;
  const offset = error.position.byteOffset;
  if (offset === undefined || offset < unit.headerEnd) return error;
  return new TfpipeError(error.code, error.detail, {
    position: { ...error.position, byteOffset: offset - unit.headerEnd + unit.start },
    fatal: error.fatal,
    cause: error.cause,
    ...(error.stage === undefined ? {} : { stage: error.stage }),
    ...(error.reason === undefined ? {} : { reason: error.reason }),
  });
}

/** A unit's opened stream, whose report says what the unit read and skipped. */
interface ReadUnit {
  readonly readable: unknown;
  readonly unit: PlanUnit;
}

/**
 * The report of the units read so far as one source's: records, skipped and bytes summed, the
 * skipped errors in unit order (the first {@link KEPT_SKIPPED_ERRORS}), a CSV range's byte offsets
 * counted in its file, details merged (later win).
 */
function unitsReport(stage: string, read: readonly ReadUnit[]): StageReport {
  let records: number | undefined;
  const reports = read.map(({ readable, unit }) => {
    const report = reportOf(readable);
    if (report === undefined) return undefined;
    if (report.records !== undefined) records = (records ?? 0) + report.records;
    const errors = report.skippedErrors?.map((error) => inWholeFile(error, unit) as TfpipeError);
    return errors === undefined ? report : { ...report, skippedErrors: errors };
  });
  const merged = mergeReports(reports.find((report) => report !== undefined)?.stage ?? stage, reports);
  return {
    ...merged,
    skippedErrors: (merged.skippedErrors ?? []).slice(0, KEPT_SKIPPED_ERRORS),
    ...(records === undefined ? {} : { records }),
  };
}

/**
 * The pipeline's source plugin, made to read the given units one after another as one stream: the
 * first unit is opened at once (it says what the chunks are), each next one when the previous ends.
 * With no unit it opens the plan's first unit only to learn that, and reads nothing. `onEnd` is
 * called once the last unit has ended (every chunk handed out); not for an image source, whose
 * stream goes to the run as the plugin made it (its report and lending switch are on it). The stream's
 * report is every unit's (see {@link unitsReport}), so that no unit's skipped records go unreported.
 */
export function unitSource(
  plan: ScalePlan,
  source: SourcePluginDefinition,
  baseOptions: object,
  unitIndexes: readonly number[],
  onEnd: () => void = () => undefined,
): SourcePluginDefinition {
  return {
    ...source,
    async create(_options: unknown, context: PluginContext): Promise<OpenedSource<unknown>> {
      const units = unitIndexes.map((index) => plan.units[index]!);
      const openUnit = async (unit: PlanUnit): Promise<OpenedSource<unknown>> =>
        source.create(unitOptions(plan, baseOptions, unit), context);
      if (plan.units[0]?.kind === 'images') {
        // One image source for all the shard's runs: it lists the input once, keeps its images in
        // flight across runs, and its error positions count in the whole input.
        const ranges = units.map((unit) => (unit.kind === 'images' ? [unit.start, unit.end] : [0, 0]));
        const opened = await source.create(
          { ...unitOptions(plan, baseOptions, plan.units[0]), ranges },
          context,
        );
        const { sideFiles: _sideFiles, ...kept } = opened;
        return kept;
      }
      // The unit being read: its errors' byte offsets are mapped into its file.
      let unit = units[0] ?? plan.units[0]!;
      const first = await openUnit(unit).catch((error: unknown) => {
        throw inWholeFile(error, unit);
      });
      let reader: ReadableStreamDefaultReader<unknown> | undefined;
      let next = 0;
      // The units opened so far, and their other reporting streams.
      const read: ReadUnit[] = [];
      const reporters: object[] = [];
      const readUnit = (opened: OpenedSource<unknown>): ReadableStreamDefaultReader<unknown> => {
        read.push({ readable: opened.readable, unit });
        for (const reporter of opened.reporters ?? []) reporters.push(reporter);
        return opened.readable.getReader();
      };
      if (units.length === 0) await first.readable.cancel();
      else {
        reader = readUnit(first);
        next = 1;
      }
      const readable = new ReadableStream<unknown>({
        async pull(controller) {
          try {
            while (reader !== undefined) {
              const { done, value } = await reader.read();
              if (!done) {
                controller.enqueue(value);
                return;
              }
              if (next < units.length) {
                unit = units[next++]!;
                reader = readUnit(await openUnit(unit));
              } else reader = undefined;
            }
          } catch (error) {
            throw inWholeFile(error, unit);
          }
          onEnd();
          controller.close();
        },
        async cancel(reason) {
          await reader?.cancel(reason);
        },
      });
      const { sideFiles: _sideFiles, readable: _readable, reporters: _reporters, ...rest } = first;
      const stage = reportOf(first.readable)?.stage ?? source.name;
      return { ...rest, readable: attachReport(readable, () => unitsReport(stage, read)), reporters };
    },
  };
}

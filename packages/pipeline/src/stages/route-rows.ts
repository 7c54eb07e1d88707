import {
  attachReport,
  RecordErrorPolicy,
  reportOf,
  type RecordErrorOptions,
  type Reporter,
  type ShardSummary,
} from '@tfpipe/core';
import { mergeReports } from './merge-reports.js';

/** Options of {@link routeRows}. */
export interface RouteRowsOptions<Row> extends RecordErrorOptions {
  /** The branch of a row (the `index`-th seen). Throw a TfpipeError for a bad row (policy applies). */
  readonly route: (row: Row, index: number) => string;
  /** Opens the branch `name` (a sink, or `chainWritable(stages, sink)`), once, on its first row. */
  readonly open: (name: string) => WritableStream<Row>;
  /** Branches opened at the start even if no row goes there (so an empty split still gets files). @default [] */
  readonly names?: readonly string[];
}

/**
 * Fans rows out to several writables by name: the split writer (`train` / `validation` / `test`,
 * each its own sink). Closing it closes every branch; an error or abort aborts every branch, so
 * no sink leaves a finished-looking file behind. Batches (arrays) are routed row by row. Its
 * report merges the branches' (shards of all splits) and adds `details.splits`: name →
 * `{ records, shards }`.
 */
export function routeRows<Row>(
  options: RouteRowsOptions<Row>,
): WritableStream<Row | readonly Row[]> & Reporter {
  const policy = new RecordErrorPolicy(options);
  const branches = new Map<
    string,
    { stream: WritableStream<Row>; writer: WritableStreamDefaultWriter<Row>; records: number }
  >();
  let index = 0;
  let routed = 0;
  const branch = (name: string) => {
    let found = branches.get(name);
    if (found === undefined) {
      const stream = options.open(name);
      const writer = stream.getWriter();
      writer.closed.catch(() => undefined);
      found = { stream, writer, records: 0 };
      branches.set(name, found);
    }
    return found;
  };
  const abortAll = async (reason: unknown): Promise<void> => {
    await Promise.allSettled([...branches.values()].map(({ writer }) => writer.abort(reason)));
  };
  const writeRow = async (row: Row): Promise<void> => {
    let name: string;
    try {
      name = options.route(row, index++);
    } catch (error) {
      policy.handle(error);
      return;
    }
    const target = branch(name);
    await target.writer.ready;
    target.records++;
    routed++;
    target.writer.write(row).catch(() => undefined);
  };
  const stream = new WritableStream<Row | readonly Row[]>({
    start() {
      for (const name of options.names ?? []) branch(name);
    },
    async write(chunk) {
      try {
        if (Array.isArray(chunk)) for (const row of chunk as readonly Row[]) await writeRow(row);
        else await writeRow(chunk as Row);
      } catch (error) {
        await abortAll(error);
        throw error;
      }
    },
    async close() {
      const results = await Promise.allSettled([...branches.values()].map(({ writer }) => writer.close()));
      const failed = results.find((result) => result.status === 'rejected');
      if (failed !== undefined) {
        await abortAll(failed.reason);
        throw failed.reason;
      }
    },
    abort: (reason) => abortAll(reason),
  });
  return attachReport(stream, () => {
    const merged = mergeReports(
      'routeRows',
      [...branches.values()].map(({ stream: branchStream }) => reportOf(branchStream)),
    );
    const splits: Record<string, { records: number; shards: readonly ShardSummary[] }> = {};
    for (const [name, { records, stream: branchStream }] of branches) {
      splits[name] = { records, shards: reportOf(branchStream)?.shards ?? [] };
    }
    return {
      ...merged,
      records: routed,
      skipped: (merged.skipped ?? 0) + policy.skipped,
      skippedErrors: [...policy.errors, ...(merged.skippedErrors ?? [])],
      details: { ...merged.details, splits },
    };
  });
}

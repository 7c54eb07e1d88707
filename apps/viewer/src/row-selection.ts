import { sampleRows, TfpipeError } from '@tfpipe/core';
import { rowExpression } from '@tfpipe/pipeline/expression';
import { decodePayload } from './decode-payload.js';
import { forEachPayload } from './record-pass.js';
import type { PayloadSource } from './record-payloads.js';

/** Which records the table shows: all, those an expression keeps, a seeded sample, every k-th. */
export type Selection =
  | { readonly kind: 'all' }
  | { readonly kind: 'filter'; readonly expression: string }
  | { readonly kind: 'sample'; readonly count: number; readonly seed: number }
  | { readonly kind: 'every'; readonly step: number; readonly start: number };

/** Rows kept by a selection, sorted, or `undefined` for all of them. */
export type SelectedRows = Uint32Array | undefined;

/**
 * The rows of the index a selection keeps.
 * - `filter`: the pipeline file's filter language (`@tfpipe/pipeline`'s `rowExpression`) on each
 *   decoded record; a payload that does not decode is never kept.
 * - `sample`: core's `sampleRows({ count, seed })` over the row numbers (reservoir sampling, in file
 *   order), so a pipeline's `sample` transform with the same seed keeps the same records.
 * - `every`: rows `start`, `start + step`, …
 * @throws TfpipeError `INVALID_OPTION` naming the field for a bad number or expression (with its column)
 */
export async function selectRows(
  from: PayloadSource,
  selection: Selection,
  onProgress: (visited: number) => void,
): Promise<SelectedRows> {
  const count = from.index.count;
  switch (selection.kind) {
    case 'all':
      return undefined;
    case 'every': {
      const step = wholeNumber(selection.step, 'every k-th: k', 1);
      const start = wholeNumber(selection.start, 'every k-th: first record', 0);
      const rows = new Uint32Array(Math.max(0, Math.ceil((count - start) / step)));
      for (let at = 0; at < rows.length; at++) rows[at] = start + at * step;
      return rows;
    }
    case 'sample': {
      const size = wholeNumber(selection.count, 'sample: records', 0);
      const seed = wholeNumber(selection.seed, 'sample: seed', 0);
      let next = 0;
      const numbers = new ReadableStream<number>({
        pull(controller) {
          if (next >= count) controller.close();
          else controller.enqueue(next++);
        },
      });
      const kept: number[] = [];
      const reader = numbers.pipeThrough(sampleRows<number>({ count: size, seed })).getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) kept.push(read.value);
      return Uint32Array.from(kept);
    }
    case 'filter': {
      const predicate = rowExpression(selection.expression);
      const kept: number[] = [];
      await forEachPayload(
        from,
        { count },
        (payload, row) => {
          const { payload: record } = decodePayload(payload);
          if (record !== undefined && predicate(record)) kept.push(row);
        },
        onProgress,
      );
      return Uint32Array.from(kept);
    }
  }
}

function wholeNumber(value: number, field: string, least: number): number {
  if (!Number.isSafeInteger(value) || value < least) {
    throw new TfpipeError(
      'INVALID_OPTION',
      `${field} must be a whole number of at least ${least}, got ${value}`,
      {
        stage: 'tfpipe view',
        fatal: true,
        position: { field },
      },
    );
  }
  return value;
}

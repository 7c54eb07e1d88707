import { HEADER_BYTES, iterate, readTfrecordStream } from '@tfpipe/sink-tfrecord/web';
import { sliceStream } from './byte-source.js';
import { readPayloads, type PayloadSource } from './record-payloads.js';

/** A frame's bytes besides its payload: the length, its CRC and the payload's CRC. */
const FRAME_OVERHEAD_BYTES = HEADER_BYTES + 4;

/** The most bytes of an uncompressed file one step of a pass reads at once. @default 8 MiB */
export const PASS_READ_BYTES = 8 * 1024 * 1024;

/** Rows a pass visits: every row of the index, or a sorted list of them. */
export type PassRows = { readonly count: number } | readonly number[] | Uint32Array;

/**
 * Visits the payload of each row in `rows`, in order, reading an uncompressed file in slices of at
 * most {@link PASS_READ_BYTES} (so any file size passes in bounded memory), a compressed one from the
 * kept payloads or by decompressing it once more. `onProgress` gets the rows visited so far.
 */
export async function forEachPayload(
  from: PayloadSource,
  rows: PassRows,
  visit: (payload: Uint8Array, row: number) => void,
  onProgress: (visited: number) => void = () => undefined,
): Promise<void> {
  const total = 'count' in rows ? rows.count : rows.length;
  const rowAt =
    'count' in rows ? (position: number): number => position : (position: number) => rows[position]!;
  if (from.compression !== 'none' && !allKept(from, total, rowAt)) {
    return decompressOnce(from, total, rowAt, visit, onProgress);
  }
  for (const { first, last, visited } of rowSteps(from, rows)) {
    const payloads = await readPayloads(from, first, last + 1);
    payloads.forEach((payload, offset) => visit(payload, first + offset));
    onProgress(visited);
  }
}

/** One step of a pass: rows `first..last` (consecutive), and how many rows of the list are then done. */
export interface RowStep {
  readonly first: number;
  readonly last: number;
  readonly visited: number;
}

/**
 * The steps of a pass over `rows`: runs of consecutive rows whose frames start within
 * {@link PASS_READ_BYTES} of the run's first, so that each step is one read of the file.
 */
export function* rowSteps(from: PayloadSource, rows: PassRows): Generator<RowStep> {
  const total = 'count' in rows ? rows.count : rows.length;
  const rowAt =
    'count' in rows ? (position: number): number => position : (position: number) => rows[position]!;
  let position = 0;
  while (position < total) {
    const first = rowAt(position);
    let end = position + 1;
    const limit = from.index.byteOffset(first) + PASS_READ_BYTES;
    while (
      end < total &&
      adjacent(from, rowAt(end - 1), rowAt(end)) &&
      from.index.byteOffset(rowAt(end)) < limit
    )
      end++;
    yield { first, last: rowAt(end - 1), visited: end };
    position = end;
  }
}

/** Whether row `next` is the frame right after row `row` in the file (no lost bytes between them). */
function adjacent(from: PayloadSource, row: number, next: number): boolean {
  const { index } = from;
  return (
    next === row + 1 &&
    index.byteOffset(next) === index.byteOffset(row) + FRAME_OVERHEAD_BYTES + index.length(row)
  );
}

function allKept(from: PayloadSource, total: number, rowAt: (position: number) => number): boolean {
  return total === 0 || from.cache.get(rowAt(total - 1)) !== undefined;
}

/** A compressed file past the kept payloads: decompressed once more from the start. */
async function decompressOnce(
  from: PayloadSource,
  total: number,
  rowAt: (position: number) => number,
  visit: (payload: Uint8Array, row: number) => void,
  onProgress: (visited: number) => void,
): Promise<void> {
  const { source, index } = from;
  const records = readTfrecordStream(
    sliceStream(source, () => undefined),
    {
      file: source.name,
      compression: from.compression,
      onError: 'skip',
    },
  );
  let position = 0;
  for await (const record of iterate(records)) {
    if (position >= total) break;
    const row = rowAt(position);
    if (record.recordIndex !== index.recordIndex(row)) continue;
    visit(record.data, row);
    position++;
    if (position % 1024 === 0) onProgress(position);
  }
  onProgress(position);
}

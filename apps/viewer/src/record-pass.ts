import { HEADER_BYTES, iterate, readTfrecordStream } from '@tfpipe/sink-tfrecord/web';
import { sliceStream } from './byte-source.js';
import type { PayloadSource } from './record-payloads.js';

/** A frame's bytes besides its payload: the length, its CRC and the payload's CRC. */
const FRAME_OVERHEAD_BYTES = HEADER_BYTES + 4;

/** The most bytes of an uncompressed file one step of a pass reads at once. @default 8 MiB */
export const PASS_READ_BYTES = 8 * 1024 * 1024;

/** Rows a pass visits: every row of the index, or a sorted list of them. */
export type PassRows = { readonly count: number } | readonly number[] | Uint32Array;

/**
 * Visits the payload of each row in `rows`, in order, reading an uncompressed file in slices of at
 * most {@link PASS_READ_BYTES} (so any file size passes in bounded memory, and a sparse list such as
 * every k-th row costs one read per slice, not one per row), a compressed one from the kept payloads
 * or by decompressing it once more. `onProgress` gets the rows visited so far.
 */
export async function forEachPayload(
  from: PayloadSource,
  rows: PassRows,
  visit: (payload: Uint8Array, row: number) => void,
  onProgress: (visited: number) => void = () => undefined,
): Promise<void> {
  const total = 'count' in rows ? rows.count : rows.length;
  const rowAt = rowOfPosition(rows);
  if (from.compression !== 'none') {
    if (!allKept(from, total, rowAt)) return decompressOnce(from, total, rowAt, visit, onProgress);
    for (let position = 0; position < total; position++) {
      const row = rowAt(position);
      visit(from.cache.get(row)!, row);
      if ((position + 1) % 1024 === 0) onProgress(position + 1);
    }
    return onProgress(total);
  }
  const { index } = from;
  for (const step of rowSteps(from, rows)) {
    const bytes = await from.source.read(step.start, step.end);
    for (let position = step.visited - step.count; position < step.visited; position++) {
      const row = rowAt(position);
      const offset = index.byteOffset(row) - step.start + HEADER_BYTES;
      visit(bytes.subarray(offset, offset + index.length(row)), row);
    }
    onProgress(step.visited);
  }
}

/** One step of a pass over an uncompressed file: one read, and the rows of the list whose frames it holds. */
export interface RowStep {
  /** The rows' positions in the list: `visited - count` to `visited`. */
  readonly count: number;
  /** How many rows of the list are done after this step. */
  readonly visited: number;
  /** The byte offset of the first frame of the step. */
  readonly start: number;
  /** The byte offset just past the last frame (its data CRC included). */
  readonly end: number;
  /** Whether the frames are consecutive in the file, with nothing between them. */
  readonly contiguous: boolean;
}

/**
 * The steps of a pass over `rows` (a sorted list): runs of rows whose frames end within
 * {@link PASS_READ_BYTES} of the run's first frame (one past it when a single frame is longer),
 * consecutive in the file or not, so that each step is one read of the file.
 */
export function* rowSteps(from: PayloadSource, rows: PassRows): Generator<RowStep> {
  const total = 'count' in rows ? rows.count : rows.length;
  const rowAt = rowOfPosition(rows);
  const { index } = from;
  const frameEnd = (row: number): number => index.byteOffset(row) + FRAME_OVERHEAD_BYTES + index.length(row);
  let position = 0;
  while (position < total) {
    const first = rowAt(position);
    const start = index.byteOffset(first);
    let contiguous = true;
    let end = position + 1;
    while (end < total && frameEnd(rowAt(end)) - start <= PASS_READ_BYTES) {
      contiguous &&= index.byteOffset(rowAt(end)) === frameEnd(rowAt(end - 1));
      end++;
    }
    yield { count: end - position, visited: end, start, end: frameEnd(rowAt(end - 1)), contiguous };
    position = end;
  }
}

/** The row at each position of `rows`. */
export const rowOfPosition = (rows: PassRows): ((position: number) => number) =>
  'count' in rows ? (position) => position : (position) => rows[position]!;

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

import type { FileMetaData } from 'hyparquet';
import type { ResolvedReadOptions } from './parquet-read-options.js';

/** A run of rows decoded at once: within one row group, absolute row indexes in the file. */
export interface RowSlice {
  /** 0-based row group index. */
  readonly rowGroup: number;
  /** First row (inclusive), counted from the start of the file. */
  readonly start: number;
  /** Row to stop before (exclusive), counted from the start of the file. */
  readonly end: number;
}

/** The slices to read from a file: selected row groups ∩ [rowStart, rowEnd), cut to decodeRows. */
export function planSlices(metadata: FileMetaData, options: ResolvedReadOptions): RowSlice[] {
  const slices: RowSlice[] = [];
  let groupStart = 0;
  metadata.row_groups.forEach((group, rowGroup) => {
    const groupEnd = groupStart + Number(group.num_rows);
    const selected = options.rowGroups === undefined || options.rowGroups.has(rowGroup);
    const start = Math.max(groupStart, options.rowStart);
    const end = Math.min(groupEnd, options.rowEnd);
    if (selected) {
      for (let sliceStart = start; sliceStart < end; sliceStart += options.decodeRows) {
        slices.push({ rowGroup, start: sliceStart, end: Math.min(end, sliceStart + options.decodeRows) });
      }
    }
    groupStart = groupEnd;
  });
  return slices;
}

import type { ShardOptions } from '../pipeline/dataset-options.js';
import type { RecordIndex, RecordRange, TfrecordFile } from './tfrecord-file.js';

/** One file (or one range of it) a pass reads. */
export interface PlannedRead {
  readonly file: TfrecordFile;
  readonly range?: RecordRange;
}

/** What a pass reads, and the element sharding left to do when files lack an index. */
export interface ReadPlan {
  readonly reads: readonly PlannedRead[];
  readonly everyNth?: { readonly index: number; readonly count: number };
}

/**
 * What one shard reads. By file: files `index`, `index + count`, … By record, when every file has an
 * index: the records are numbered across the files in order, shard `i` of `n` takes records
 * `⌊i·N/n⌋ … ⌊(i+1)·N/n⌋ - 1` (DALI's split), and only their bytes are read. Without an index for
 * every file: all of them, every `count`-th record kept.
 */
export async function planReads(
  files: readonly TfrecordFile[],
  shard: ShardOptions | undefined,
): Promise<ReadPlan> {
  if (shard === undefined) return { reads: files.map((file) => ({ file })) };
  const { index, count } = shard;
  if (shard.by === 'file')
    return { reads: files.filter((_, position) => position % count === index).map((file) => ({ file })) };
  const indexes = await Promise.all(files.map(async (file) => file.index?.()));
  if (indexes.some((recordIndex) => recordIndex === undefined))
    return { reads: files.map((file) => ({ file })), everyNth: { index, count } };
  const total = indexes.reduce((sum, recordIndex) => sum + recordIndex!.offsets.length, 0);
  const low = Math.floor((index * total) / count);
  const high = Math.floor(((index + 1) * total) / count);
  const reads: PlannedRead[] = [];
  let first = 0;
  files.forEach((file, position) => {
    const recordIndex = indexes[position] as RecordIndex;
    const from = Math.max(low, first) - first;
    const to = Math.min(high, first + recordIndex.offsets.length) - first;
    first += recordIndex.offsets.length;
    if (from >= to) return;
    const start = recordIndex.offsets[from]!;
    const end = recordIndex.offsets[to - 1]! + recordIndex.sizes[to - 1]!;
    reads.push({ file, range: { start, end, firstRecord: from } });
  });
  return { reads };
}

import type { RaggedPartition } from '../spec/ragged-partition.js';

/**
 * The row splits (`[0, …, itemCount]`) one partition gives the `itemCount` items of the level below
 * it, or a sentence saying why they do not line up. `values` is the partition's int64 feature
 * (unused for a uniform row length).
 */
export function partitionSplits(
  partition: RaggedPartition,
  values: Float64Array,
  itemCount: number,
): number[] | string {
  switch (partition.type) {
    case 'uniformRowLength': {
      if (itemCount % partition.length !== 0)
        return `${itemCount} values do not split into rows of ${partition.length}`;
      return Array.from({ length: itemCount / partition.length + 1 }, (_, row) => row * partition.length);
    }
    case 'rowSplits': {
      const splits = values.length === 0 ? [0] : Array.from(values);
      if (splits[0] !== 0) return `row splits start at ${splits[0]}, not 0`;
      return checkSplits(splits, itemCount);
    }
    case 'rowLengths': {
      const splits = [0];
      for (const length of values) {
        if (length < 0) return `row length ${length} is negative`;
        splits.push((splits[splits.length - 1] as number) + length);
      }
      return checkSplits(splits, itemCount);
    }
    case 'rowStarts': {
      if (values.length > 0 && values[0] !== 0) return `row starts begin at ${values[0]}, not 0`;
      return checkSplits([...values, itemCount], itemCount);
    }
    case 'rowLimits':
      return checkSplits([0, ...values], itemCount);
    case 'valueRowIds': {
      if (values.length !== itemCount) return `${values.length} row ids for ${itemCount} values`;
      const rows = values.length === 0 ? 0 : (values[values.length - 1] as number) + 1;
      const splits = new Array<number>(rows + 1).fill(0);
      let previous = 0;
      for (const row of values) {
        if (row < previous) return `row ids are not sorted (${row} after ${previous})`;
        previous = row;
        (splits[row + 1] as number)++;
      }
      for (let row = 1; row <= rows; row++)
        splits[row] = (splits[row] as number) + (splits[row - 1] as number);
      return splits;
    }
  }
}

function checkSplits(splits: number[], itemCount: number): number[] | string {
  for (let index = 1; index < splits.length; index++) {
    if ((splits[index] as number) < (splits[index - 1] as number))
      return `row splits decrease at position ${index}`;
  }
  const last = splits[splits.length - 1] as number;
  if (last !== itemCount) return `the rows end at ${last} but there are ${itemCount} values`;
  return splits;
}

import { TfpipeError } from '@tfpipe/core';
import type { Dtype, ExampleParseSpec, Tensor } from '@tfpipe/dataset';

/** One value of an exported cell. */
export type CellValue = bigint | number | Uint8Array;

/** One output column of `tfpipe export`: a spec entry, a scalar per row or a list per row. */
export interface ExportColumn {
  /** The spec's output name. */
  readonly name: string;
  readonly dtype: Dtype;
  /** `true`: each row holds a list (a fixedLen of more than one value, a varLen, a ragged). */
  readonly list: boolean;
}

/** A batch's cells for one column: a value per row, or a list of values per row. */
export type ColumnCells = CellValue[] | CellValue[][];

/**
 * The columns of a spec, checked before anything is read: `fixedLen` (a scalar for shape `[]`, else
 * the row's values as a flat list, row-major), `varLen` and `ragged` without partitions (a list).
 * @throws TfpipeError `INVALID_OPTION` naming the feature for a kind with no one-column form
 */
export function exportColumns(spec: ExampleParseSpec, specFile: string): ExportColumn[] {
  return Object.entries(spec).map(([name, feature]) => {
    const fits =
      feature.type === 'fixedLen' ||
      feature.type === 'varLen' ||
      (feature.type === 'ragged' && feature.partitions.length === 0);
    if (!fits) {
      throw new TfpipeError(
        'INVALID_OPTION',
        `--spec: export writes fixedLen, varLen and ragged features without partitions, one column each; ${feature.type}${
          feature.type === 'ragged' ? ' with partitions' : ''
        } has no one-column form`,
        { stage: 'cli', fatal: true, position: { file: specFile, field: name } },
      );
    }
    const list = feature.type !== 'fixedLen' || feature.shape.length > 0;
    return { name, dtype: feature.dtype, list };
  });
}

function valueAt(data: ArrayLike<unknown>, index: number): CellValue {
  return data[index] as CellValue;
}

/** The rows' cells of one parsed tensor, `rows` rows. */
export function columnCells(column: ExportColumn, tensor: Tensor, rows: number): ColumnCells {
  const data = tensor.data as ArrayLike<unknown>;
  if (!column.list) return Array.from({ length: rows }, (_, row) => valueAt(data, row));
  const cells: CellValue[][] = Array.from({ length: rows }, () => []);
  if (tensor.kind === 'dense') {
    const width = rows === 0 ? 0 : data.length / rows;
    for (let index = 0; index < data.length; index++)
      cells[Math.floor(index / width)]!.push(valueAt(data, index));
  } else if (tensor.kind === 'sparse') {
    // A VarLen's indices are [row, position] pairs in row-major order.
    const rank = tensor.denseShape.length;
    for (let index = 0; index < data.length; index++)
      cells[Number(tensor.indices[index * rank])]!.push(valueAt(data, index));
  } else {
    const splits = tensor.rowSplits[0]!;
    for (let row = 0; row < rows; row++)
      for (let index = splits[row]!; index < splits[row + 1]!; index++)
        cells[row]!.push(valueAt(data, index));
  }
  return cells;
}

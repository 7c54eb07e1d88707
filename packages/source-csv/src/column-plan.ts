import { TfpipeError } from '@tfpipe/core';
import type { CsvColumnsOptions } from './csv-source-options.js';

/** Which CSV columns end up in a row, and under which names. */
export interface ColumnPlan {
  /** The header as read (or given). */
  readonly header: readonly string[];
  /** 0-based indexes of kept CSV columns, in file order. */
  readonly indexes: readonly number[];
  /** The row key (feature name) of each kept column. */
  readonly names: readonly string[];
}

const STAGE = 'csvSource';

/**
 * Checks a header (no duplicates, every name the options mention exists, no empty name left)
 * and applies keep/drop/rename.
 * @throws TfpipeError `CSV_HEADER` (fatal), at `line` of `file`, column = 1-based CSV column.
 */
export function planColumns(
  header: readonly string[],
  options: CsvColumnsOptions,
  file: string,
  line: number,
): ColumnPlan {
  const seen = new Map<string, number>();
  header.forEach((name, index) => {
    const first = seen.get(name);
    if (first !== undefined) {
      throw new TfpipeError(
        'CSV_HEADER',
        `duplicated column name ${JSON.stringify(name)} (also column ${first + 1})`,
        {
          stage: STAGE,
          fatal: true,
          position: { file, line, column: index + 1, field: name },
        },
      );
    }
    seen.set(name, index);
  });
  const mentioned = [...(options.keep ?? []), ...(options.drop ?? []), ...Object.keys(options.rename ?? {})];
  for (const name of mentioned) {
    if (!seen.has(name)) {
      throw new TfpipeError(
        'CSV_HEADER',
        `the columns option names ${JSON.stringify(name)}, which is not in the header`,
        {
          stage: STAGE,
          fatal: true,
          position: { file, line, field: name },
          reason: `header is ${header.map((item) => JSON.stringify(item)).join(', ')}`,
        },
      );
    }
  }
  const keep = options.keep === undefined ? undefined : new Set(options.keep);
  const drop = new Set(options.drop ?? []);
  const rename = options.rename ?? {};
  const indexes: number[] = [];
  const names: string[] = [];
  header.forEach((name, index) => {
    if ((keep !== undefined && !keep.has(name)) || drop.has(name)) return;
    const renamed = Object.prototype.hasOwnProperty.call(rename, name) ? rename[name]! : name;
    if (renamed === '') {
      throw new TfpipeError(
        'CSV_HEADER',
        'column has an empty name; rename or drop it with the columns option',
        {
          stage: STAGE,
          fatal: true,
          position: { file, line, column: index + 1 },
        },
      );
    }
    if (names.includes(renamed)) {
      throw new TfpipeError('CSV_HEADER', `two columns would both be named ${JSON.stringify(renamed)}`, {
        stage: STAGE,
        fatal: true,
        position: { file, line, column: index + 1, field: renamed },
      });
    }
    indexes.push(index);
    names.push(renamed);
  });
  return { header, indexes, names };
}

/** True when two headers are the same list of names. */
export function sameHeader(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, index) => name === b[index]);
}

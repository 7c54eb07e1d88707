import { seededRandom } from '../stages/sampling/seeded-random.js';
import type { SeededRandom } from '../stages/sampling/seeded-random.js';

/** The feature kind of a {@link TableColumn}. */
export type TableKind = 'int64' | 'float' | 'bytes';

/** One column of a {@link randomTable}. */
export interface TableColumn {
  /** Unique, non-empty; includes integer-like and non-ASCII names (their UTF-8 order differs). */
  readonly name: string;
  readonly kind: TableKind;
  /** Each present cell is a list of one to four values (never empty: CSV cannot write one). */
  readonly list: boolean;
}

/**
 * int64 as a bigint in the int64 range; float as a number within float32's range (or ±Infinity, NaN);
 * bytes as a non-empty well-formed string without `|` (CSV tests split lists at it).
 */
export type TableValue = bigint | number | string;

/** A cell: `null` when missing (the feature is left out), one value, or a list. */
export type TableCell = TableValue | readonly TableValue[] | null;

/** A table to write in a source's format, with {@link expectedFeatures} for each row. */
export interface Table {
  readonly columns: readonly TableColumn[];
  readonly rows: readonly (readonly TableCell[])[];
}

/** Options of {@link randomTable}. */
export interface RandomTableOptions {
  /** Number of columns (0 and up). */
  readonly columns: number;
  /** Number of rows. */
  readonly rows: number;
  /** Seed of the values: the same options give the same table. */
  readonly seed: number;
  /**
   * Kinds the columns are drawn from, lists included.
   * @default every kind, each also as a list
   */
  readonly kinds?: readonly { readonly kind: TableKind; readonly list: boolean }[];
  /**
   * Share of cells left missing, from 0 to 1.
   * @default 0.15
   */
  readonly missing?: number;
}

const ALL_KINDS = (['int64', 'float', 'bytes'] as const).flatMap((kind) => [
  { kind, list: false },
  { kind, list: true },
]);
const INT64_EDGES = [0n, 1n, -1n, 127n, 128n, 2n ** 53n + 1n, -(2n ** 63n), 2n ** 63n - 1n, 2n ** 32n];
const FLOAT_EDGES = [-0, 0, NaN, Infinity, -Infinity, 1.401298464324817e-45, 3.4028234663852886e38, 0.1];
const TEXTS = ['a', 'São Paulo', '東京', '😀', 'with,comma', 'with "quotes"', 'two\nlines', ' padded '];
const NAME_STYLES = [
  (index: number) => `c${index}`,
  (index: number) => String(index),
  (index: number) => `é${index}`,
  (index: number) => `😀_${index}`,
];

/**
 * A random table for property tests of sources and encoders: `columns` columns of every feature kind
 * (int64 over its whole range, float including -0, NaN, infinities and float32 edges, UTF-8 bytes with
 * delimiters, quotes and newlines; each also as lists), about 15% missing cells. Widths past 256 once
 * came out corrupt, so tests draw `columns` from 0 to thousands.
 */
export function randomTable(options: RandomTableOptions): Table {
  const random = seededRandom(options.seed);
  const kinds = options.kinds ?? ALL_KINDS;
  const missing = options.missing ?? 0.15;
  const columns: TableColumn[] = [];
  for (let index = 0; index < options.columns; index++) {
    const { kind, list } = kinds[random.below(kinds.length)]!;
    columns.push({ name: NAME_STYLES[random.below(NAME_STYLES.length)]!(index), kind, list });
  }
  const rows: TableCell[][] = [];
  for (let row = 0; row < options.rows; row++) {
    rows.push(
      columns.map((column): TableCell => {
        if (random.next() < missing) return null;
        if (!column.list) return randomValue(column.kind, random);
        return Array.from({ length: 1 + random.below(4) }, () => randomValue(column.kind, random));
      }),
    );
  }
  return { columns, rows };
}

function randomValue(kind: TableKind, random: SeededRandom): TableValue {
  const edge = random.below(4) === 0;
  if (kind === 'int64') {
    if (edge) return INT64_EDGES[random.below(INT64_EDGES.length)]!;
    const high = BigInt(random.below(2 ** 32)) << 32n;
    const value = BigInt.asIntN(64, high | BigInt(random.below(2 ** 32)));
    // Most cells are small: they take the encoders' number paths, not the bigint ones.
    return random.below(2) === 0 ? value : value % 100_000n;
  }
  if (kind === 'float') {
    if (edge) return FLOAT_EDGES[random.below(FLOAT_EDGES.length)]!;
    // A float32 bit pattern (subnormals, NaNs and infinities included), or a double float32 rounds.
    if (random.below(2) === 0) return new Float32Array(new Uint32Array([random.below(2 ** 32)]).buffer)[0]!;
    return (random.next() - 0.5) * 10 ** (random.below(60) - 30);
  }
  if (edge) return TEXTS[random.below(TEXTS.length)]!;
  return Array.from({ length: 1 + random.below(12) }, () =>
    String.fromCodePoint(random.below(4) === 0 ? 0xa0 + random.below(0x2000) : 0x20 + random.below(0x5f)),
  )
    .join('')
    .replaceAll('|', '/');
}

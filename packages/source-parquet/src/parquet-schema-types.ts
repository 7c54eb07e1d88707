import type { ParquetFeatureKind, ParquetValueUnit } from './describe-leaf.js';

/** One feature a Parquet file yields, as mapped from its footer. */
export interface ParquetFeature {
  /** Feature (and row key) name: the column name, or `parent/child` for struct fields. */
  readonly name: string;
  /** The tf.train.Feature kind its values take. */
  readonly kind: ParquetFeatureKind;
  /** True for a multi-valued feature (LIST, repeated field, or a `nested: 'parallel'` list). */
  readonly list: boolean;
  /** True when a row may lack it (an OPTIONAL column or an OPTIONAL parent). */
  readonly nullable: boolean;
  /** The top-level column it comes from (what `columns` selects). */
  readonly column: string;
  /** The leaf's path in the Parquet schema (`path_in_schema`). */
  readonly path: readonly string[];
  /** Physical type: `BOOLEAN`, `INT32`, `INT64`, `INT96`, `FLOAT`, `DOUBLE`, `BYTE_ARRAY`, `FIXED_LEN_BYTE_ARRAY`. */
  readonly parquetType: string;
  /** The annotation, if any: `STRING`, `DECIMAL(7,3)`, `TIMESTAMP(MICROS)`, `DATE` … */
  readonly logicalType: string | undefined;
  /** Unit of int64 time values as emitted: `days` for DATE, `s`/`ms`/`us`/`ns` for TIME and TIMESTAMP. */
  readonly unit: ParquetValueUnit | undefined;
}

/** A top-level column that cannot become features under the options given. */
export interface ParquetUnsupportedColumn {
  /** The top-level column name. */
  readonly column: string;
  /** Why, e.g. `MAP column (pass nested: 'parallel')`. */
  readonly reason: string;
}

/** The mapped feature schema of a Parquet file, read from its footer alone. */
export interface ParquetSchema {
  /** Every feature of the supported (and selected) columns, in schema order. */
  readonly features: readonly ParquetFeature[];
  /** Columns that cannot be read as features with these options. */
  readonly unsupported: readonly ParquetUnsupportedColumn[];
  /** Every top-level column name of the file, in schema order. */
  readonly columns: readonly string[];
  /** Rows in the file. */
  readonly rows: number;
  /** Row groups in the file. */
  readonly rowGroups: number;
  /** The footer's format version (1 or 2). */
  readonly formatVersion: number;
  /** The writer named in the footer (`created_by`). */
  readonly createdBy: string | undefined;
}

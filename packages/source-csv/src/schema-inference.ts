import { TfpipeError } from '@tfpipe/core';
import type { ColumnPlan } from './column-plan.js';
import type { CsvRecord } from './csv-record-reader.js';
import { checkColumnSchema, isFullSchema } from './csv-schema.js';
import type { CsvColumnSchema, CsvMissing, CsvSchema, CsvSchemaInput } from './csv-schema.js';
import { inferTextKind, widenKind } from './csv-values.js';
import type { CsvKind } from './csv-values.js';
import { sortVocabulary } from './vocabulary.js';

const STAGE = 'csvFeatures';

/** Per output column: the declared spec (possibly without kind) and what the data showed. */
export class SchemaInference {
  readonly plan: ColumnPlan;
  readonly declared: Partial<CsvColumnSchema>[];
  readonly kinds: (CsvKind | undefined)[];
  /** Distinct values per column index, for columns whose vocabulary is built. */
  readonly collected = new Map<number, Set<string>>();
  /** Rows looked at. */
  rows = 0;

  constructor(plan: ColumnPlan, input: CsvSchemaInput | undefined, file: string) {
    this.plan = plan;
    const given: Record<string, unknown> =
      input === undefined ? {} : isFullSchema(input) ? { ...input.columns } : { ...input };
    const columns = new Set(plan.names);
    for (const name of Object.keys(given)) {
      if (!columns.has(name)) {
        throw new TfpipeError(
          'CSV_HEADER',
          `the schema names column ${JSON.stringify(name)}, which the CSV does not have`,
          {
            stage: STAGE,
            fatal: true,
            position: { file, field: name },
            reason: `columns are ${plan.names.join(', ')}`,
          },
        );
      }
    }
    this.declared = plan.names.map((name) => {
      const spec = given[name];
      if (spec === undefined) {
        if (input !== undefined && isFullSchema(input)) {
          throw new TfpipeError('CSV_HEADER', `column ${JSON.stringify(name)} is not in the schema`, {
            stage: STAGE,
            fatal: true,
            position: { file, field: name },
            reason: 'add it to the schema or drop it with the columns option',
          });
        }
        return {};
      }
      return checkColumnSchema(name, spec as CsvColumnSchema);
    });
    this.kinds = this.declared.map((spec) => spec.kind);
  }

  /** True when some column has no declared kind. */
  get needsSample(): boolean {
    return this.declared.some((spec) => spec.kind === undefined);
  }

  /** Columns (output indexes) whose values must be collected for a built vocabulary. */
  collect(indexes: Iterable<number>): void {
    for (const index of indexes) if (!this.collected.has(index)) this.collected.set(index, new Set());
  }

  /** Looks at one record: widens undeclared kinds (TFX rules) and collects vocabulary values. */
  add(record: CsvRecord): void {
    this.rows++;
    const { indexes } = this.plan;
    for (let index = 0; index < indexes.length; index++) {
      const cell = record.fields[indexes[index]!]!;
      if (cell === '') continue;
      const spec = this.declared[index]!;
      const parts = spec.split === undefined ? [cell] : cell.split(spec.split);
      const values = this.collected.get(index);
      if (values !== undefined) for (const part of parts) values.add(part);
      if (spec.kind !== undefined) continue;
      let kind = this.kinds[index];
      for (const part of parts) if (part !== '') kind = widenKind(kind, inferTextKind(part));
      this.kinds[index] = kind;
    }
  }

  /**
   * The finished schema. A column with no non-empty cell in the sample becomes bytes (TFX leaves it
   * typeless). Built vocabularies are sorted by code point.
   */
  schema(missing: CsvMissing): CsvSchema {
    const columns: Record<string, CsvColumnSchema> = {};
    this.plan.names.forEach((name, index) => {
      const spec = this.declared[index]!;
      const collected = this.collected.get(index);
      const vocabulary = spec.vocabulary === 'build' ? sortVocabulary(collected ?? []) : spec.vocabulary;
      columns[name] = {
        ...spec,
        kind: this.kinds[index] ?? 'bytes',
        missing: spec.missing ?? missing,
        ...(vocabulary === undefined ? {} : { vocabulary }),
      };
    });
    return { format: 'tfpipe-csv-schema', version: 1, columns };
  }
}

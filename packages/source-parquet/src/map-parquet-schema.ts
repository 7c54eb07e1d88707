import { TfpipeError } from '@tfpipe/core';
import type { FileMetaData, SchemaTree } from 'hyparquet';
import { parquetSchema as hyparquetSchemaTree } from 'hyparquet';
import { isListLike, isMapLike } from 'hyparquet/src/schema.js';
import { describeLeaf } from './describe-leaf.js';
import type { ResolvedReadOptions } from './parquet-read-options.js';
import type { ParquetFeature, ParquetSchema, ParquetUnsupportedColumn } from './parquet-schema-types.js';

/** A value a row cannot carry (a null inside a list); the source turns it into a TfpipeError. */
export class RowValueError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** Writes the features of one top-level column's decoded value into a row. */
export type ColumnMapper = (value: unknown, row: Record<string, unknown>) => void;

/**
 * A top-level column that is one plain (not repeated) leaf: its one feature, of the column's name,
 * takes `convert(value)`, or null for a null value. Its mapper writes just that.
 */
export interface LeafColumn {
  readonly feature: string;
  readonly convert: (value: unknown) => unknown;
}

/** The schema of a file plus, per supported top-level column, the mapper of its values. */
export interface MappedSchema {
  readonly schema: ParquetSchema;
  readonly mappers: ReadonlyMap<string, ColumnMapper>;
  /** The columns that are plain leaves ({@link LeafColumn}), by column name. */
  readonly leaves: ReadonlyMap<string, LeafColumn>;
}

class UnsupportedShape extends Error {}

interface Built {
  readonly features: ParquetFeature[];
  readonly mapper: ColumnMapper;
  readonly leaf?: LeafColumn;
}

interface Context {
  readonly options: ResolvedReadOptions;
  readonly column: string;
}

function leafFeature(node: SchemaTree, name: string, list: boolean, nullable: boolean, context: Context) {
  const leaf = describeLeaf(node.element, context.options);
  const feature: ParquetFeature = {
    name,
    kind: leaf.kind,
    list,
    nullable,
    column: context.column,
    path: node.path,
    parquetType: leaf.parquetType,
    logicalType: leaf.logicalType,
    unit: leaf.unit,
  };
  return { feature, convert: leaf.convert };
}

function convertList(values: unknown, name: string, convert: (value: unknown) => unknown): unknown[] {
  const input = values as ArrayLike<unknown>;
  const output = new Array<unknown>(input.length);
  for (let index = 0; index < input.length; index++) {
    const value = input[index];
    if (value === null || value === undefined) {
      throw new RowValueError(
        name,
        `null element at index ${index} of a list (a feature cannot hold a null)`,
      );
    }
    output[index] = convert(value);
  }
  return output;
}

/** Fields of a struct element of a LIST (or the key/value group of a MAP), as aligned lists. */
function buildParallel(group: SchemaTree, name: string, context: Context, unwrap?: string): Built {
  const accessors: { name: string; path: string[]; convert: (value: unknown) => unknown }[] = [];
  const features: ParquetFeature[] = [];
  const visit = (node: SchemaTree, prefix: string, path: string[]): void => {
    for (const child of node.children) {
      const childName = `${prefix}${context.options.separator}${child.element.name}`;
      const childPath = [...path, child.element.name];
      if (child.children.length === 0 && child.element.repetition_type !== 'REPEATED') {
        const { feature, convert } = leafFeature(child, childName, true, true, context);
        features.push(feature);
        accessors.push({ name: childName, path: childPath, convert });
      } else if (
        child.children.length > 0 &&
        child.element.repetition_type !== 'REPEATED' &&
        !isListLike(child) &&
        !isMapLike(child)
      ) {
        visit(child, childName, childPath);
      } else {
        throw new UnsupportedShape(`list or map nested inside "${childName}"`);
      }
    }
  };
  visit(group, name, []);
  const mapper: ColumnMapper = (value, row) => {
    const entries = (
      unwrap === undefined || value === null || value === undefined
        ? value
        : (value as Record<string, unknown>)[unwrap]
    ) as ArrayLike<unknown> | null | undefined;
    if (entries === null || entries === undefined) {
      for (const accessor of accessors) row[accessor.name] = null;
      return;
    }
    for (const accessor of accessors) {
      const output = new Array<unknown>(entries.length);
      for (let index = 0; index < entries.length; index++) {
        let field: unknown = entries[index];
        for (const key of accessor.path)
          field = field === null || field === undefined ? field : (field as Record<string, unknown>)[key];
        if (field === null || field === undefined) {
          throw new RowValueError(
            accessor.name,
            `null at index ${index} of parallel lists (they must stay aligned)`,
          );
        }
        output[index] = accessor.convert(field);
      }
      row[accessor.name] = output;
    }
  };
  return { features, mapper };
}

function buildNode(node: SchemaTree, name: string, nullableAbove: boolean, context: Context): Built {
  const nullable = nullableAbove || node.element.repetition_type === 'OPTIONAL';
  const parallel = context.options.nested === 'parallel';
  if (node.children.length === 0) {
    const list = node.element.repetition_type === 'REPEATED';
    const { feature, convert } = leafFeature(node, name, list, nullable, context);
    // A repeated field cannot be null: no values is an empty list.
    if (list) {
      const mapper: ColumnMapper = (value, row) => {
        row[name] = value === null || value === undefined ? [] : convertList(value, name, convert);
      };
      return { features: [feature], mapper };
    }
    const mapper: ColumnMapper = (value, row) => {
      row[name] = value === null || value === undefined ? null : convert(value);
    };
    return { features: [feature], mapper, leaf: { feature: name, convert } };
  }
  if (isListLike(node)) {
    // The same element hyparquet assembles: 3-level lists skip the repeated group.
    const repeated = node.children[0] as SchemaTree;
    const element = repeated.children.length === 1 ? (repeated.children[0] as SchemaTree) : repeated;
    // A legacy two-level LIST<LIST>: the element under the repeated group repeats again.
    if (element !== repeated && element.element.repetition_type === 'REPEATED') {
      throw new UnsupportedShape('LIST of LIST or of MAP');
    }
    if (element.children.length === 0) {
      const { feature, convert } = leafFeature(element, name, true, nullable, context);
      const mapper: ColumnMapper = (value, row) => {
        row[name] = value === null || value === undefined ? null : convertList(value, name, convert);
      };
      return { features: [feature], mapper };
    }
    if (isListLike(element) || isMapLike(element) || element.element.repetition_type === 'REPEATED') {
      throw new UnsupportedShape('LIST of LIST or of MAP');
    }
    if (!parallel) throw new UnsupportedShape("LIST of STRUCT (pass nested: 'parallel')");
    return buildParallel(element, name, context);
  }
  if (isMapLike(node)) {
    if (!parallel) throw new UnsupportedShape("MAP (pass nested: 'parallel')");
    const keyValue = node.children[0] as SchemaTree;
    return buildParallel(keyValue, name, context, keyValue.element.name);
  }
  if (node.element.repetition_type === 'REPEATED') {
    if (!parallel) throw new UnsupportedShape("repeated group (pass nested: 'parallel')");
    return buildParallel(node, name, context);
  }
  const children = node.children.map((child) => ({
    key: child.element.name,
    built: buildNode(child, `${name}${context.options.separator}${child.element.name}`, nullable, context),
  }));
  const mapper: ColumnMapper = (value, row) => {
    const struct = value as Record<string, unknown> | null | undefined;
    for (const { key, built } of children)
      built.mapper(struct === null || struct === undefined ? null : struct[key], row);
  };
  return { features: children.flatMap(({ built }) => built.features), mapper };
}

/**
 * Maps a file's footer to features (the README's type mapping). Columns whose shape has no feature
 * form under `options` are listed in `unsupported`, not thrown: selecting other columns still works.
 */
export function mapParquetSchema(metadata: FileMetaData, options: ResolvedReadOptions): MappedSchema {
  const root = hyparquetSchemaTree(metadata);
  const features: ParquetFeature[] = [];
  const unsupported: ParquetUnsupportedColumn[] = [];
  const mappers = new Map<string, ColumnMapper>();
  const leaves = new Map<string, LeafColumn>();
  const selected = options.columns === undefined ? undefined : new Set(options.columns);
  for (const node of root.children) {
    const column = node.element.name;
    if (selected !== undefined && !selected.has(column)) continue;
    try {
      const built = buildNode(node, column, false, { options, column });
      for (const feature of built.features) features.push(feature);
      mappers.set(column, built.mapper);
      if (built.leaf !== undefined) leaves.set(column, built.leaf);
    } catch (error) {
      if (!(error instanceof UnsupportedShape)) throw error;
      unsupported.push({ column, reason: error.message });
    }
  }
  const seen = new Set<string>();
  for (const feature of features) {
    if (seen.has(feature.name)) {
      throw new TfpipeError('PARQUET_SCHEMA', `two features would be named "${feature.name}"`, {
        stage: 'parquetSource',
        position: { field: feature.name },
        reason: 'pick another separator',
      });
    }
    seen.add(feature.name);
  }
  const schema: ParquetSchema = {
    features,
    unsupported,
    columns: root.children.map((node) => node.element.name),
    rows: Number(metadata.num_rows),
    rowGroups: metadata.row_groups.length,
    formatVersion: metadata.version,
    createdBy: metadata.created_by,
  };
  return { schema, mappers, leaves };
}

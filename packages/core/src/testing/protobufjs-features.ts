import { tfProto } from '../codec/tf-proto.js';
import type { Table, TableKind, TableValue } from './random-table.js';

/** A feature as plain values: int64 as bigints, float as the float32 value, bytes as UTF-8 text. */
export interface PlainFeature {
  readonly kind: TableKind;
  readonly value: readonly (bigint | number | string)[];
}

const KINDS = { int64List: 'int64', floatList: 'float', bytesList: 'bytes' } as const;
const text = new TextDecoder('utf-8', { fatal: true });

/**
 * The features of a serialized `tf.train.Example` as protobufjs decodes them: a decoder independent
 * of tfpipe's own, for tests that check what an encoder wrote.
 * @throws Error from protobufjs for malformed bytes; TypeError for a bytes value that is not UTF-8
 */
export function protobufjsFeatures(bytes: Uint8Array): Record<string, PlainFeature> {
  const { Example } = tfProto();
  const decoded = Example.toObject(Example.decode(bytes), { longs: String }) as {
    features?: { feature?: Record<string, Record<string, { value?: unknown[] }>> };
  };
  const features: Record<string, PlainFeature> = {};
  for (const [name, feature] of Object.entries(decoded.features?.feature ?? {})) {
    const [field, list] = Object.entries(feature)[0] ?? [];
    const kind = KINDS[field as keyof typeof KINDS];
    const values = list?.value ?? [];
    features[name] = {
      kind,
      value: values.map((value) =>
        kind === 'int64'
          ? BigInt(value as string)
          : kind === 'bytes'
            ? text.decode(value as Uint8Array)
            : value,
      ) as PlainFeature['value'],
    };
  }
  return features;
}

/** The features row `rowIndex` of `table` must become (a missing cell: no feature; floats as float32). */
export function expectedFeatures(table: Table, rowIndex: number): Record<string, PlainFeature> {
  const features: Record<string, PlainFeature> = {};
  const row = table.rows[rowIndex]!;
  for (const [index, column] of table.columns.entries()) {
    const cell = row[index];
    if (cell === null || cell === undefined) continue;
    const values: readonly TableValue[] = Array.isArray(cell) ? cell : [cell as TableValue];
    features[column.name] = {
      kind: column.kind,
      value: column.kind === 'float' ? values.map((value) => Math.fround(value as number)) : values,
    };
  }
  return features;
}

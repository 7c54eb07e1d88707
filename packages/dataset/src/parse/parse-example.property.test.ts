// parse(write(x)) == x for random specs and batches, with three writers: core's encodeExample, and
// protobufjs (an independent implementation) writing packed lists and unpacked ones.
import { bytes, emptyFeature, encodeExample, example, float, int64 } from '@tfpipe/core';
import { tfProto } from '@tfpipe/core/protobuf';
import type { Feature } from '@tfpipe/core';
import fc from 'fast-check';
import protobuf from 'protobufjs/light.js';
import { describe, expect, it } from 'vitest';
import { fixedLen, fixedLenSequence, ragged, varLen } from '../spec/feature-spec.js';
import type { FeatureSpec } from '../spec/feature-spec.js';
import type { Dtype } from '../spec/dtype.js';
import { parseExample } from './parse-example.js';
import { raggedList, sparseTriple } from './tensor-test-helpers.js';

type Value = bigint | number | Uint8Array;
interface Column {
  readonly name: string;
  readonly type: 'fixedLen' | 'varLen' | 'fixedLenSequence' | 'ragged';
  readonly dtype: Dtype;
  readonly stride: number;
  readonly fallback: Value | undefined;
  /** Per Example: its values, or undefined when missing (or kindless, when `kindless`). */
  readonly rows: (Value[] | undefined)[];
  readonly kindless: boolean[];
}

const valueOf: Record<Dtype, fc.Arbitrary<Value>> = {
  int64: fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n),
  int32: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map(BigInt),
  number: fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }).map(BigInt),
  float32: fc.float({ noNaN: true }),
  string: fc.uint8Array({ maxLength: 6 }),
};

function columnArbitrary(name: string, batchSize: number): fc.Arbitrary<Column> {
  return fc
    .record({
      type: fc.constantFrom<Column['type']>('fixedLen', 'varLen', 'fixedLenSequence', 'ragged'),
      dtype: fc.constantFrom<Dtype>('int64', 'int32', 'number', 'float32', 'string'),
      stride: fc.integer({ min: 1, max: 3 }),
      withDefault: fc.boolean(),
    })
    .chain(({ type, dtype, stride, withDefault }) => {
      const width = type === 'fixedLen' || type === 'fixedLenSequence' ? stride : 1;
      const length = fc.integer({ min: 0, max: 4 }).map((count) => count * width);
      const row =
        type === 'fixedLen'
          ? fc.option(fc.array(valueOf[dtype], { minLength: width, maxLength: width }), {
              nil: undefined,
              freq: withDefault ? 3 : 1000,
            })
          : fc.option(
              length.chain((count) => fc.array(valueOf[dtype], { minLength: count, maxLength: count })),
              { nil: undefined },
            );
      return fc.record({
        name: fc.constant(name),
        type: fc.constant(type),
        dtype: fc.constant(dtype),
        stride: fc.constant(width),
        fallback: withDefault || type === 'fixedLenSequence' ? valueOf[dtype] : fc.constant(undefined),
        rows: fc.array(row, { minLength: batchSize, maxLength: batchSize }),
        kindless: fc.array(fc.boolean(), { minLength: batchSize, maxLength: batchSize }),
      });
    })
    .filter(
      (column) =>
        column.type !== 'fixedLen' ||
        column.fallback !== undefined ||
        column.rows.every((row) => row !== undefined),
    );
}

const batchArbitrary = fc.integer({ min: 0, max: 5 }).chain((batchSize) =>
  fc
    .uniqueArray(fc.constantFrom('a', 'b', 'image/encoded', 'label', 'x:y', 'é', ''), {
      minLength: 1,
      maxLength: 4,
    })
    .chain((names) =>
      fc.tuple(fc.constant(batchSize), fc.tuple(...names.map((name) => columnArbitrary(name, batchSize)))),
    ),
);

function specOf(column: Column): FeatureSpec {
  const shape = column.stride === 1 && column.type === 'fixedLen' ? [] : [column.stride];
  const fallback = column.fallback as never;
  switch (column.type) {
    case 'fixedLen':
      return fixedLen(
        shape,
        column.dtype,
        fallback === undefined ? {} : { default: Array(column.stride).fill(fallback) },
      );
    case 'fixedLenSequence':
      return fixedLenSequence([column.stride], column.dtype, { allowMissing: true, default: fallback });
    case 'varLen':
      return varLen(column.dtype);
    default:
      return ragged(column.dtype);
  }
}

function featureOf(dtype: Dtype, values: Value[]): Feature {
  if (dtype === 'float32') return float(...(values as number[]));
  if (dtype === 'string') return bytes(...(values as Uint8Array[]));
  return int64(...(values as bigint[]));
}

function examplesOf(batchSize: number, columns: readonly Column[]): Record<string, Feature>[] {
  return Array.from({ length: batchSize }, (_, index) => {
    const features: Record<string, Feature> = { unrelated: bytes('noise') };
    for (const column of columns) {
      const row = column.rows[index];
      if (row !== undefined) features[column.name] = featureOf(column.dtype, row);
      else if (column.kindless[index]) features[column.name] = emptyFeature();
    }
    return features;
  });
}

const UNPACKED_DESCRIPTOR = {
  nested: {
    BytesList: { fields: { value: { rule: 'repeated', type: 'bytes', id: 1 } } },
    FloatList: { fields: { value: { rule: 'repeated', type: 'float', id: 1, options: { packed: false } } } },
    Int64List: { fields: { value: { rule: 'repeated', type: 'int64', id: 1, options: { packed: false } } } },
    Feature: {
      oneofs: { kind: { oneof: ['bytesList', 'floatList', 'int64List'] } },
      fields: {
        bytesList: { type: 'BytesList', id: 1 },
        floatList: { type: 'FloatList', id: 2 },
        int64List: { type: 'Int64List', id: 3 },
      },
    },
    Features: { fields: { feature: { keyType: 'string', type: 'Feature', id: 1 } } },
    Example: { fields: { features: { type: 'Features', id: 1 } } },
  },
};
const UNPACKED = protobuf.Root.fromJSON(UNPACKED_DESCRIPTOR).lookupType('Example');

/** A protobufjs message object of an Example; int64s as `{ low, high }`, which protobufjs takes exactly. */
function protobufjsMessage(features: Record<string, Feature>): object {
  const feature: Record<string, object> = {};
  for (const [name, value] of Object.entries(features)) {
    if (value.kind === 'none') feature[name] = {};
    else if (value.kind === 'bytes') feature[name] = { bytesList: { value: value.value } };
    else if (value.kind === 'float') feature[name] = { floatList: { value: Array.from(value.value) } };
    else {
      const words = value.value.map((item) => ({
        low: Number(BigInt.asUintN(32, item)) | 0,
        high: Number(BigInt.asIntN(64, item) >> 32n) | 0,
      }));
      feature[name] = { int64List: { value: words } };
    }
  }
  return { features: { feature } };
}

const WRITERS: Record<string, (features: Record<string, Feature>) => Uint8Array> = {
  'core encodeExample': (features) => encodeExample(example(features)),
  'protobufjs packed': (features) => tfProto().Example.encode(protobufjsMessage(features)).finish(),
  'protobufjs unpacked': (features) => UNPACKED.encode(protobufjsMessage(features)).finish(),
};

const plainValue = (value: Value): number | string =>
  value instanceof Uint8Array ? Array.from(value).join(',') : Number(value);

function expectColumn(column: Column, tensor: Parameters<typeof sparseTriple>[0]): void {
  const { rows, dtype } = column;
  const asPlain = (values: Value[]): (number | string)[] =>
    values.map((value) => (dtype === 'float32' ? Math.fround(value as number) : plainValue(value)));
  const actual = (): (number | string)[] =>
    Array.from(tensor.data as ArrayLike<Value>, (value) =>
      typeof value === 'number' ? value : plainValue(value),
    );
  if (dtype === 'int64') expect(tensor.data).toBeInstanceOf(BigInt64Array);
  switch (column.type) {
    case 'fixedLen': {
      const fallback = Array(column.stride).fill(column.fallback) as Value[];
      expect(actual()).toEqual(rows.flatMap((row) => asPlain(row ?? fallback)));
      return;
    }
    case 'fixedLenSequence': {
      const longest = Math.max(0, ...rows.map((row) => row?.length ?? 0));
      const padded = rows.flatMap((row) => {
        const values = row ?? [];
        return [...values, ...(Array(longest - values.length).fill(column.fallback) as Value[])];
      });
      expect(actual()).toEqual(asPlain(padded));
      expect(tensor.shape).toEqual([rows.length, longest / column.stride, column.stride]);
      return;
    }
    case 'varLen': {
      const [indices, , denseShape] = sparseTriple(tensor);
      expect(actual()).toEqual(asPlain(rows.flatMap((row) => row ?? [])));
      expect(indices).toEqual(
        rows.flatMap((row, example) => (row ?? []).map((_, position) => [example, position])),
      );
      expect(denseShape).toEqual([rows.length, Math.max(0, ...rows.map((row) => row?.length ?? 0))]);
      return;
    }
    case 'ragged':
      expect(actual()).toEqual(asPlain(rows.flatMap((row) => row ?? [])));
      expect(raggedList(tensor).map((row) => (row as unknown[]).length)).toEqual(
        rows.map((row) => row?.length ?? 0),
      );
  }
}

describe('parseExample: parse(write(x)) == x', () => {
  for (const [writer, write] of Object.entries(WRITERS)) {
    it(`for random specs and batches written by ${writer}`, () => {
      fc.assert(
        fc.property(batchArbitrary, ([batchSize, columns]) => {
          const spec = Object.fromEntries(columns.map((column) => [column.name, specOf(column)]));
          const records = examplesOf(batchSize, columns).map(write);
          const batch = parseExample(spec).parse(records);
          for (const column of columns) expectColumn(column, batch[column.name]!);
        }),
        { numRuns: 300 },
      );
    });
  }
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EncodedExample, ENCODED } from '../../codec/encoded-example.js';
import { decodeExample } from '../../codec/decode-example.js';
import { encodeExample, encodeInto, encodedLength } from '../../codec/encode-example.js';
import { tfProto } from '../../codec/tf-proto.js';
import { TfpipeError } from '../../errors/tfpipe-error.js';
import type { Example } from '../../model/example.js';
import { collect, fromArray } from '../../testing/index.js';
import { buildExamples, compileExampleSpec, compileCellEncoder } from '../build-examples.js';
import type { ExampleSpec, FeatureEntry } from '../spec/example-spec.js';

const hex = (bytes: Uint8Array): string =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

const NAMES = ['a', 'b', 'ab', 'B', 'é', '\u{1d11e}', '\uffff', '__proto__', '', 'k'.repeat(130)];
const FIELDS = ['x', 'y', 'z'];

const scalar = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(2 ** 53, -(2 ** 53), 2 ** 53 - 1, -(2 ** 53) + 1, 2 ** 40, -(2 ** 40), -0, 0.5, -1.5),
  fc.double(),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
  fc.boolean(),
  fc.constantFrom(
    '1',
    '-7',
    ' 42 ',
    '+3',
    '-0',
    '000123',
    '9007199254740993',
    '-9223372036854775808',
    '9223372036854775808',
    '00000000000000000000000017',
    '1.5',
    '6.02E23',
    'nan',
    '-inf',
    'Infinity',
    'true',
    'FALSE',
    '0x10',
    '1e3',
    'abc',
    ' ',
    '1,2,3',
    ',',
    'é€',
    '\u{1f600}',
    '\ud800',
    'x'.repeat(70),
  ),
  fc.string({ maxLength: 8 }),
  fc.uint8Array({ maxLength: 300 }),
);

const cell: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 2, arbitrary: fc.constantFrom(undefined, null, '') },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.float32Array({ maxLength: 3 }),
      fc.constant([1, null]),
      fc.constant([[1]]),
      fc.constant({ kind: 'int64', value: [3n] }),
      fc.constant({ kind: 'none', value: [] }),
      fc.constant({ some: 'object' }),
      fc.constant(new Int32Array([1, -2])),
    ),
  },
);

const DEFAULTS = { int64: [-1, '2'], float: 1.5, bytes: 'x' } as const;

const entry: fc.Arbitrary<FeatureEntry<Record<string, unknown>>> = fc
  .record({
    kind: fc.constantFrom('int64', 'float', 'bytes'),
    source: fc.constantFrom('name', 'field', 'computed', 'throws'),
    field: fc.constantFrom(...FIELDS),
    split: fc.constantFrom(undefined, ','),
    missing: fc.constantFrom(undefined, 'omit', 'empty', 'default', 'error'),
    boolean: fc.boolean(),
  })
  .map(
    ({ kind, source, field, split, missing, boolean }) =>
      ({
        kind,
        ...(source === 'field' ? { field } : {}),
        ...(source === 'computed' ? { value: (row: Record<string, unknown>) => row[field] } : {}),
        ...(source === 'throws'
          ? {
              value: (row: Record<string, unknown>) => {
                if (row[field] === 1) throw new Error('computed value failed');
                return row[field];
              },
            }
          : {}),
        ...(split === undefined ? {} : { split }),
        ...(missing === undefined ? {} : { missing }),
        ...(missing === 'default' ? { default: DEFAULTS[kind] } : {}),
        ...(boolean && kind === 'int64' ? { boolean: true } : {}),
      }) as FeatureEntry<Record<string, unknown>>,
  );

const spec: fc.Arbitrary<ExampleSpec<object>> = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...NAMES), entry), {
    minLength: 1,
    maxLength: 6,
    selector: ([name]) => name,
  })
  .map((entries) => {
    const out = Object.create(null) as Record<string, FeatureEntry<Record<string, unknown>>>;
    for (const [name, feature] of entries) out[name] = feature;
    return out as ExampleSpec<object>;
  });

const row = fc.dictionary(fc.constantFrom(...NAMES, ...FIELDS), cell, { maxKeys: 8, noNullPrototype: true });

/** The Feature path's result: wire bytes, or the error it throws. */
function reference(specValue: ExampleSpec<object>, rowValue: object): Uint8Array | TfpipeError {
  const buildRow = compileExampleSpec(specValue, {}, 'buildExamples');
  try {
    return encodeExample({ features: buildRow(rowValue) });
  } catch (error) {
    if (TfpipeError.is(error)) return error;
    throw error;
  }
}

describe('the direct row encoder', () => {
  it('writes the bytes of the Feature path, and fails with its error, for random specs and rows', async () => {
    let direct = 0;
    let total = 0;
    await fc.assert(
      fc.asyncProperty(spec, fc.array(row, { minLength: 1, maxLength: 6 }), async (specValue, rows) => {
        for (const rowValue of rows) {
          const expected = reference(specValue, rowValue);
          const outcome = await collect(fromArray([rowValue]).pipeThrough(buildExamples(specValue))).then(
            (examples) => examples[0]!,
            (error: unknown) => error,
          );
          total++;
          if (expected instanceof Uint8Array) {
            expect(TfpipeError.is(outcome), String(outcome)).toBe(false);
            const example = outcome as Example;
            if (example instanceof EncodedExample) direct++;
            expect(hex(encodeExample(example))).toBe(hex(expected));
          } else {
            expect(TfpipeError.is(outcome)).toBe(true);
            const error = outcome as TfpipeError;
            expect([error.code, error.position.field, error.detail]).toEqual([
              expected.code,
              expected.position.field,
              expected.detail,
            ]);
          }
        }
      }),
      { numRuns: 400 },
    );
    // The property means little if the direct path never ran.
    expect(direct).toBeGreaterThan(total / 10);
  });

  it('keeps the Feature path’s output for a batch under onError skip', async () => {
    await fc.assert(
      fc.asyncProperty(spec, fc.array(row, { maxLength: 20 }), async (specValue, rows) => {
        const expected = rows
          .map((rowValue) => reference(specValue, rowValue))
          .filter((value): value is Uint8Array => value instanceof Uint8Array)
          .map(hex);
        const batches = await collect(
          fromArray([rows]).pipeThrough(buildExamples.batches(specValue, { onError: 'skip' })),
        );
        expect(batches.flat().map((example) => hex(encodeExample(example)))).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});

describe('a row wider than 256 features', () => {
  // MNIST as CSV is a label and 784 pixels. The scalar slots once stopped at 256: later floats came
  // out NaN and later int64s as malformed protobuf, under a valid CRC.
  it('keeps every int64 and float value past the 256th, as protobufjs decodes them', () => {
    const names = Array.from({ length: 785 }, (_, index) => `p${String(index).padStart(3, '0')}`);
    const kinds = names.map((_, index) => (index % 3 === 0 ? 'float' : index % 3 === 1 ? 'int64' : 'bytes'));
    const cells = names.map((_, index) =>
      kinds[index] === 'float' ? index + 0.5 : kinds[index] === 'int64' ? -index * 1001 : `v${index}`,
    );
    const encode = compileCellEncoder(names.map((name, index) => [name, { kind: kinds[index]! }] as const));
    const example = encode(cells);
    expect(example).toBeInstanceOf(EncodedExample);
    const { Example: ExampleType } = tfProto();
    const decoded = ExampleType.toObject(ExampleType.decode(encodeExample(example)), {
      longs: String,
      bytes: String,
    }) as { features: { feature: Record<string, Record<string, { value: unknown[] }>> } };
    const values = names.map((name) => Object.values(decoded.features.feature[name]!)[0]!.value[0]);
    const expected = cells.map((cell) =>
      typeof cell === 'string' ? btoa(cell) : Number.isInteger(cell) ? String(cell) : cell,
    );
    expect(values).toEqual(expected);
  });
});

describe('EncodedExample', () => {
  it('carries the FORMAT.md known-answer bytes and decodes its features on demand', async () => {
    const [example] = await collect(fromArray([{ a: 1 }]).pipeThrough(buildExamples({ a: 'int64' })));
    expect(example).toBeInstanceOf(EncodedExample);
    expect(hex((example as EncodedExample)[ENCODED])).toBe('0a0c0a0a0a016112051a030a0101');
    expect(example!.features).toEqual({ a: { kind: 'int64', value: [1n] } });
    expect(example!.features).toBe(example!.features);
  });

  it('is written by encodedLength/encodeInto as a copy of its bytes', async () => {
    const [example] = await collect(
      fromArray([{ x: 1.5, s: 'hé', n: [-1, 2n ** 62n] }]).pipeThrough(
        buildExamples({ x: 'float', s: 'bytes', n: 'int64' }),
      ),
    );
    const reference = encodeExample({ features: decodeExample(encodeExample(example!)).features });
    const target = new Uint8Array(encodedLength(example!) + 3);
    expect(encodeInto(example!, target, 3)).toBe(target.length);
    expect(hex(target.subarray(3))).toBe(hex(reference));
  });

  it('lets any object carry bytes under Symbol.for("tfpipe.encoded")', () => {
    const bytes = new Uint8Array([0x0a, 0x00]);
    const carried = { features: {}, [Symbol.for('tfpipe.encoded')]: bytes } as Example;
    expect(encodedLength(carried)).toBe(2);
    expect(Array.from(encodeExample(carried))).toEqual([0x0a, 0x00]);
  });
});

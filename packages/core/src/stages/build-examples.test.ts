import { describe, expect, it } from 'vitest';
import { positionOf, reportOf, withPosition } from '../contract/plugin-contract.js';
import { encodeExample } from '../codec/encode-example.js';
import { decodeExample } from '../codec/decode-example.js';
import { TfpipeError } from '../errors/tfpipe-error.js';
import type { Example } from '../model/example.js';
import { collect, fromArray } from '../testing/index.js';
import { buildExamples, compileCellEncoder } from './build-examples.js';
import { EncodedExample } from '../codec/encoded-example.js';
import type { BuildExamplesOptions } from './build-examples.js';
import type { ExampleSpec } from './spec/example-spec.js';

const hex = (bytes: Uint8Array): string =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

async function build(
  rows: object[],
  spec: ExampleSpec<object>,
  options?: BuildExamplesOptions,
): Promise<Example[]> {
  return collect(fromArray(rows).pipeThrough(buildExamples(spec, options)));
}

async function failure(
  rows: object[],
  spec: ExampleSpec<object>,
  options?: BuildExamplesOptions,
): Promise<TfpipeError> {
  const error: unknown = await build(rows, spec, options).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!TfpipeError.is(error)) throw new Error(`expected a TfpipeError, got ${String(error)}`);
  return error;
}

describe('buildExamples', () => {
  it('builds the FORMAT.md known-answer Examples from string cells', async () => {
    const [a] = await build([{ a: '1' }], { a: 'int64' });
    expect(hex(encodeExample(a!))).toBe('0a0c0a0a0a016112051a030a0101');
    const [x] = await build([{ x: '1.5' }], { x: 'float' });
    expect(hex(encodeExample(x!))).toBe('0a0f0a0d0a0178120812060a040000c03f');
  });

  it('reads renamed fields, computed values and split lists', async () => {
    const [example] = await build([{ age: '41', tags: 'a|b', first: 'Ada', last: 'L' }], {
      years: { kind: 'int64', field: 'age' },
      tags: { kind: 'bytes', split: '|' },
      name: { kind: 'bytes', value: (row) => `${String((row as { first: string }).first)} L` },
    });
    expect(example!.features.years).toEqual({ kind: 'int64', value: [41n] });
    expect(
      (example!.features.tags!.value as Uint8Array[]).map((value) => new TextDecoder().decode(value)),
    ).toEqual(['a', 'b']);
    expect(new TextDecoder().decode(example!.features.name!.value[0] as Uint8Array)).toBe('Ada L');
  });

  it('applies each missing policy to undefined, null and empty cells', async () => {
    const rows = [{ v: undefined }, { v: null }, { v: '' }, {}];
    const omitted = await build(rows, { v: 'int64' });
    expect(omitted.every((example) => !('v' in example.features))).toBe(true);
    const empty = await build(rows, { v: { kind: 'float', missing: 'empty' } });
    // Directly encoded Examples decode their floats as a Float32Array: compare the values.
    expect(
      empty.map((example) => ({
        ...example.features.v!,
        value: Array.from(example.features.v!.value as ArrayLike<unknown>),
      })),
    ).toEqual(rows.map(() => ({ kind: 'float', value: [] })));
    const defaulted = await build(rows, { v: { kind: 'int64', missing: 'default', default: [-1, '2'] } });
    expect(defaulted.map((example) => example.features.v!.value)).toEqual(rows.map(() => [-1n, 2n]));
    const error = await failure(rows, { v: { kind: 'int64', missing: 'error' } });
    expect(error.code).toBe('FEATURE_MISSING');
    expect(error.position.field).toBe('v');
  });

  it('takes the builder-wide missing policy unless a feature sets its own', async () => {
    const [example] = await build(
      [{}],
      { a: 'int64', b: { kind: 'int64', missing: 'omit' } },
      { missing: 'empty' },
    );
    expect(example!.features).toEqual({ a: { kind: 'int64', value: [] } });
  });

  it('positions a bad cell at the row and the source field', async () => {
    const row = withPosition({ age: '12abc' }, { file: 'people.csv', line: 7, row: 5 });
    const error = await failure([{ age: '1' }, row], { years: { kind: 'int64', field: 'age' } });
    expect(error.code).toBe('FEATURE_TYPE');
    expect(error.stage).toBe('buildExamples');
    expect(error.position).toEqual({ file: 'people.csv', line: 7, row: 5, field: 'age' });
    expect(error.message).toBe(
      '"12abc" is not a decimal integer (feature "years") at row 5 (line 7, field "age") of people.csv',
    );
  });

  it('skips bad rows under onError skip, counts them and calls onSkip', async () => {
    const skipped: TfpipeError[] = [];
    const stream = buildExamples({ n: 'int64' }, { onError: 'skip', onSkip: (error) => skipped.push(error) });
    const examples = await collect(
      fromArray([{ n: '1' }, { n: 2 ** 60 }, { n: '3' }, { n: '99999999999999999999' }]).pipeThrough(stream),
    );
    expect(examples.map((example) => example.features.n!.value[0])).toEqual([1n, 3n]);
    expect(skipped.map((error) => error.code)).toEqual(['UNSAFE_INTEGER', 'INT64_RANGE']);
    expect(reportOf(stream)).toMatchObject({ stage: 'buildExamples', records: 2, skipped: 2 });
  });

  it('keeps a feature named __proto__ as a feature', async () => {
    const [example] = await build([JSON.parse('{"__proto__": "7"}') as object], { ['__proto__']: 'int64' });
    expect(Object.keys(example!.features)).toEqual(['__proto__']);
    expect(positionOf(example)).toBeUndefined();
  });

  it('checks the spec when called, naming the feature and the option', () => {
    const bad = (spec: unknown): string => {
      try {
        buildExamples(spec as ExampleSpec);
      } catch (error) {
        if (TfpipeError.is(error) && error.code === 'INVALID_OPTION' && error.fatal) return error.message;
        throw error;
      }
      return 'no error';
    };
    expect(bad({ a: 'int32' })).toMatch(/feature "a" kind must be/);
    expect(bad({ a: 3 })).toMatch(/feature "a" must be/);
    expect(bad({ a: { kind: 'int32' } })).toMatch(/feature "a" kind must be/);
    expect(bad({ a: { kind: 'int64', missing: 'default' } })).toMatch(/no default/);
    expect(bad({ a: { kind: 'int64', missing: 'default', default: 'x' } })).toMatch(/unusable default/);
    expect(bad({ a: { kind: 'int64', feild: 'b' } })).toMatch(/unknown option "feild"/);
    expect(bad({ a: { kind: 'float', boolean: true } })).toMatch(/int64 only/);
    expect(bad({ a: { kind: 'bytes', split: '' } })).toMatch(/split/);
    expect(bad({ a: { kind: 'bytes', field: 'a', value: () => 1 } })).toMatch(/not both/);
    expect(() => buildExamples({ a: 'int64' }, { onError: 'ignore' as 'skip' })).toThrow(/onError/);
  });

  it('wraps an exception of a computed value as a FEATURE_TYPE record error', async () => {
    const error = await failure([{}], {
      c: {
        kind: 'int64',
        value: () => {
          throw new RangeError('nope');
        },
      },
    });
    expect(error.code).toBe('FEATURE_TYPE');
    expect(error.cause).toBeInstanceOf(RangeError);
  });
});

describe('compileCellEncoder', () => {
  const spec = { age: 'int64', name: 'bytes', score: 'float', tags: { kind: 'bytes', split: '|' } } as const;
  const names = Object.keys(spec);
  const rows: Record<string, unknown>[] = [
    { age: 42, name: 'Ada', score: 1.5, tags: 'a|b' },
    { age: 9007199254740993n, name: new Uint8Array([0, 255]), score: '2.25' },
    { age: '7', name: '東京', score: Number.NaN, tags: '' },
    // A ready Feature: not for the direct path, so the Feature path builds it.
    { age: { kind: 'int64', value: [1n, 2n] }, name: 'x', score: 0 },
  ];

  it('writes the bytes buildExamples writes for the same cells, directly when it can', async () => {
    const encode = compileCellEncoder(spec);
    const want = await build(rows, spec);
    const got = rows.map((row) => encode(names.map((name) => row[name])));
    expect(got.map((example) => encodeExample(example))).toEqual(
      want.map((example) => encodeExample(example)),
    );
    expect(got.map((example) => example instanceof EncodedExample)).toEqual([true, true, true, false]);
  });

  it('takes cells in the order of [name, entry] pairs, where an object would list integer-like names first', () => {
    const cells = ['x', 5];
    const paired = compileCellEncoder([
      ['b', 'bytes'],
      ['1', 'int64'],
    ]);
    expect(decodeExample(encodeExample(paired(cells))).features).toEqual({
      b: { kind: 'bytes', value: [new TextEncoder().encode('x')] },
      1: { kind: 'int64', value: [5n] },
    });
    // The same spec as an object wants the cells as Object.keys lists them: '1' first.
    expect(Object.keys({ b: 'bytes', 1: 'int64' })).toEqual(['1', 'b']);
    expect(() => compileCellEncoder({ b: 'bytes', 1: 'int64' })(cells)).toThrow(/not a decimal integer/);
    for (const bad of [
      [
        ['a', 'bytes'],
        ['a', 'int64'],
      ],
      [['a']],
      ['a'],
    ]) {
      let code: string | undefined;
      try {
        compileCellEncoder(bad as never);
      } catch (error) {
        code = TfpipeError.is(error) ? error.code : 'not a TfpipeError';
      }
      expect(code).toBe('INVALID_OPTION');
    }
  });

  it('keeps the position on both paths, and throws an unpositioned cell error', () => {
    const encode = compileCellEncoder(spec, { stage: 'mySource' });
    const position = { file: 'a.csv', line: 3, row: 2 };
    expect(positionOf(encode([1, 'x', 1, undefined], position))).toEqual(position);
    const feature = { kind: 'int64', value: [1n] };
    expect(positionOf(encode([feature, 'x', 1, undefined], position))).toEqual(position);
    expect(positionOf(encode([1, 'x', 1, undefined]))).toBeUndefined();
    const error = (() => {
      try {
        encode([1.5, 'x', 1, undefined], position);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(TfpipeError.is(error) && error.code).toBe('UNSAFE_INTEGER');
    expect(TfpipeError.is(error) && error.stage).toBe('mySource');
  });
});

import { describe, expect, it } from 'vitest';
import { EncodedExample } from '../../codec/encoded-example.js';
import { encodeExample } from '../../codec/encode-example.js';
import { TfpipeError } from '../../errors/tfpipe-error.js';
import type { Example } from '../../model/example.js';
import { compileCellEncoder } from '../build-examples.js';
import type { ExampleSpecEntries } from '../build-examples.js';
import { ByteRange, NumberCell } from './byte-range.js';

const hex = (bytes: Uint8Array): string =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** The encoded bytes of a row, or the error's code and message. */
function outcome(encode: (cells: readonly unknown[]) => Example, cells: readonly unknown[]): unknown {
  try {
    const example = encode(cells);
    return { direct: example instanceof EncodedExample, bytes: hex(encodeExample(example)) };
  } catch (error) {
    if (!TfpipeError.is(error)) throw error;
    return { code: error.code, message: error.message };
  }
}

const utf8 = new TextEncoder();
/** A source buffer with the cell's bytes in its middle, and the range over them. */
function rangeOf(bytes: Uint8Array): ByteRange {
  const source = new Uint8Array(bytes.length + 7).fill(0x7c);
  source.set(bytes, 3);
  return new ByteRange().set(source, 3, 3 + bytes.length);
}

const values = [
  new Uint8Array(0),
  utf8.encode('ab'),
  utf8.encode('São Paulo, 東京'),
  new Uint8Array([0, 255, 128, 10]),
  utf8.encode('x'.repeat(65)),
  utf8.encode('y'.repeat(300)),
];

describe('ByteRange cells', () => {
  it('encode the known-answer bytes of a one-feature Example', () => {
    // Example { features { feature { key: "s" value { bytes_list { value: "ab" } } } } }, by hand:
    // 0a 0d (features) 0a 0b (map entry) 0a 01 73 (key) 12 06 (value) 0a 04 (bytes_list) 0a 02 61 62.
    const encode = compileCellEncoder({ s: 'bytes' });
    expect(hex(encodeExample(encode([rangeOf(utf8.encode('ab'))])))).toBe('0a0d0a0b0a017312060a040a026162');
  });

  for (const [title, width] of [
    ['on the generated writer', 4],
    ['on the general encoder (a spec wider than 256 features)', 300],
  ] as const) {
    it(`write what the same bytes as a Uint8Array write, ${title}`, () => {
      const spec: ExampleSpecEntries = Array.from({ length: width }, (_, index) => [
        `f${index}`,
        index % 4 === 0
          ? 'int64'
          : index % 4 === 1
            ? 'float'
            : index % 4 === 2
              ? 'bytes'
              : { kind: 'bytes', split: '|' },
      ]);
      const encode = compileCellEncoder(spec);
      for (const value of values) {
        const cells = spec.map((_, index) => (index % 4 === 0 ? index : index % 4 === 1 ? 0.5 : value));
        const ranged = spec.map((_, index) => (index % 4 >= 2 ? rangeOf(value) : cells[index]));
        const expected = outcome(encode, cells);
        expect((expected as { direct: boolean }).direct).toBe(true);
        expect(outcome(encode, ranged), `${value.length} bytes`).toEqual(expected);
      }
    });
  }

  it('have the outcome a Uint8Array has in an int64 or float feature (the Feature path’s, from the view)', () => {
    const encode = compileCellEncoder({ n: 'int64', x: 'float', s: 'bytes' });
    const outcomes: unknown[] = [];
    for (const text of ['12', 'ab']) {
      const bytes = utf8.encode(text);
      for (const cells of [
        [bytes, 1, 'a'],
        [1, bytes, 'a'],
      ]) {
        const expected = outcome(encode, cells);
        outcomes.push(expected);
        expect(
          outcome(
            encode,
            cells.map((cell) => (cell === bytes ? rangeOf(bytes) : cell)),
          ),
        ).toEqual(expected);
      }
    }
    expect(outcomes).toHaveLength(4);
  });

  it('take a ready Feature beside them through the Feature path, with the same bytes', () => {
    const encode = compileCellEncoder({ n: 'int64', s: 'bytes' });
    const feature = { kind: 'int64', value: [1n, 2n] };
    const example = encode([feature, rangeOf(utf8.encode('ab'))]);
    expect(example).not.toBeInstanceOf(EncodedExample);
    expect(hex(encodeExample(example))).toBe(hex(encodeExample(encode([feature, utf8.encode('ab')]))));
  });

  it('refuse a range that is not within its buffer', () => {
    const source = new Uint8Array(4);
    for (const [start, end] of [
      [-1, 2],
      [3, 2],
      [0, 5],
      [0.5, 2],
      [Number.NaN, 1],
    ] as const) {
      expect(() => new ByteRange().set(source, start, end), `${start}-${end}`).toThrow(RangeError);
    }
    expect(new ByteRange().set(source, 4, 4).view()).toHaveLength(0);
  });

  it('are read only during the call: a range reused for the next row leaves the first row as it was', () => {
    const encode = compileCellEncoder({ s: 'bytes' });
    const source = utf8.encode('first,second');
    const range = new ByteRange();
    const first = encode([range.set(source, 0, 5)]);
    const second = encode([range.set(source, 6, 12)]);
    source.fill(0);
    expect(hex(encodeExample(first))).toBe(hex(encodeExample(encode([utf8.encode('first')]))));
    expect(hex(encodeExample(second))).toBe(hex(encodeExample(encode([utf8.encode('second')]))));
  });
});

/** A holder of `value`. */
function holding(value: number): NumberCell {
  const cell = new NumberCell();
  cell.value = value;
  return cell;
}

describe('NumberCell cells', () => {
  const numbers = [
    0,
    -0,
    1,
    -1,
    0.1,
    -2.5e-8,
    3.4e38,
    1e40,
    Number.NaN,
    Infinity,
    2 ** 53 - 1,
    2 ** 53,
    1.5,
    -(2 ** 40),
  ];

  it('encode the known-answer bytes of a one-feature Example', () => {
    // Example { features { feature { key: "x" value { float_list { value: 1.5 } } } } }, by hand:
    // 0a 0f 0a 0d 0a 01 78 12 08 12 06 0a 04 + 1.5 as a little-endian float32 (00 00 c0 3f).
    const encode = compileCellEncoder({ x: 'float' });
    expect(hex(encodeExample(encode([holding(1.5)])))).toBe('0a0f0a0d0a017812081206' + '0a040000c03f');
  });

  for (const [title, width] of [
    ['on the generated writer', 4],
    ['on the general encoder (a spec wider than 256 features)', 300],
  ] as const) {
    it(`have the outcome the number has, in float and int64 features, ${title}`, () => {
      const spec: ExampleSpecEntries = Array.from({ length: width }, (_, index) => [
        `f${index}`,
        index % 2 === 0 ? 'float' : 'int64',
      ]);
      const encode = compileCellEncoder(spec);
      for (const number of numbers) {
        // Every feature the number: an int64 feature takes only a safe integer, else the error.
        const plain = spec.map(() => number);
        const held = spec.map(() => holding(number));
        expect(outcome(encode, held), String(number)).toEqual(outcome(encode, plain));
        // Float features alone, with the int64 features given a plain 7.
        const floats = spec.map((_, index) => (index % 2 === 0 ? number : 7));
        const heldFloats = spec.map((_, index) => (index % 2 === 0 ? holding(number) : 7));
        const expected = outcome(encode, floats);
        expect((expected as { direct: boolean }).direct).toBe(true);
        expect(outcome(encode, heldFloats), String(number)).toEqual(expected);
      }
    });
  }

  it('are read only during the call: a holder reused for the next row leaves the first row as it was', () => {
    const encode = compileCellEncoder({ n: 'int64', x: 'float' });
    const cell = new NumberCell();
    cell.value = 0.25;
    const first = encode([1, cell]);
    cell.value = -8;
    const second = encode([2, cell]);
    cell.value = 99;
    expect(hex(encodeExample(first))).toBe(hex(encodeExample(encode([1, 0.25]))));
    expect(hex(encodeExample(second))).toBe(hex(encodeExample(encode([2, -8]))));
  });

  it('take a ready Feature beside them through the Feature path, with the same bytes', () => {
    const encode = compileCellEncoder({ n: 'int64', x: 'float' });
    const feature = { kind: 'int64', value: [1n, 2n] };
    const example = encode([feature, holding(0.5)]);
    expect(example).not.toBeInstanceOf(EncodedExample);
    expect(hex(encodeExample(example))).toBe(hex(encodeExample(encode([feature, 0.5]))));
  });
});

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { TfpipeError } from '../errors/tfpipe-error.js';
import { bytes, emptyFeature, float, int64 } from '../model/feature.js';
import { example, sequenceExample } from '../model/example.js';
import {
  exampleArbitrary,
  referenceEncodeExample,
  referenceEncodeSequenceExample,
  sequenceExampleArbitrary,
} from './codec-test-helpers.js';
import { encodedLength, encodeExample, encodeInto, encodeSequenceExample } from './encode-example.js';

const hex = (data: Uint8Array): string =>
  Array.from(data, (byte) => byte.toString(16).padStart(2, '0')).join('');
const RUNS = { seed: 20240611, numRuns: 300 };

describe('encodeExample known answers (FORMAT.md)', () => {
  test('Example{a: int64[1]}', () => {
    expect(hex(encodeExample(example({ a: int64(1) })))).toBe('0a0c0a0a0a016112051a030a0101');
  });
  test('Example{x: float[1.5]}', () => {
    expect(hex(encodeExample(example({ x: float(1.5) })))).toBe('0a0f0a0d0a0178120812060a040000c03f');
  });
  test('Feature{int64_list:[-1]} is the 10-byte two’s-complement varint inside a one-feature Example', () => {
    // Example > Features entry > value (tag 0x12, length 14) holds exactly the Feature bytes.
    const encoded = hex(encodeExample(example({ k: int64(-1) })));
    expect(encoded).toContain('120e' + '1a0c0a0affffffffffffffffff01');
    expect(encoded).toBe('0a150a130a016b120e1a0c0a0affffffffffffffffff01');
  });
});

describe('encodeExample', () => {
  test('sorts keys by UTF-8 bytes, not UTF-16 code units', () => {
    // U+FFFF (ef bf bf) sorts before U+1F600 (f0 9f 98 80) in UTF-8, after it in UTF-16.
    const encoded = encodeExample(example({ '😀': int64(1), '\uFFFF': int64(2) }));
    const first = hex(encoded).indexOf('efbfbf');
    const second = hex(encoded).indexOf('f09f9880');
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(second);
  });

  test('writes the same bytes whatever the key insertion order', () => {
    const left = encodeExample(example({ b: int64(2), a: bytes('x'), '10': float(1), '9': emptyFeature() }));
    const right = encodeExample(example({ '9': emptyFeature(), a: bytes('x'), '10': float(1), b: int64(2) }));
    expect(hex(left)).toBe(hex(right));
    expect(hex(left)).toBe(
      hex(
        referenceEncodeExample(example({ a: bytes('x'), b: int64(2), '10': float(1), '9': emptyFeature() })),
      ),
    );
  });

  test('a feature called __proto__ is encoded like any other', () => {
    const features = Object.create(null) as Record<string, ReturnType<typeof int64>>;
    features.__proto__ = int64(7);
    expect(hex(encodeExample({ features }))).toBe(hex(referenceEncodeExample({ features })));
    expect(hex(encodeExample({ features }))).toContain(hex(new TextEncoder().encode('__proto__')));
  });

  test('Float32Array values are copied bytewise and equal number[] encoding', () => {
    const values = [0.1, -0, 3.5, 1e-45];
    expect(hex(encodeExample(example({ f: { kind: 'float', value: Float32Array.from(values) } })))).toBe(
      hex(encodeExample(example({ f: float(...values) }))),
    );
  });

  test('encodeInto writes at the offset and returns the end; encodedLength is exact', () => {
    const value = example({ a: int64(1, -5, 2n ** 62n), b: bytes('hello'), c: float(2) });
    const length = encodedLength(value);
    const target = new Uint8Array(length + 10).fill(0xee);
    expect(encodeInto(value, target, 7)).toBe(7 + length);
    expect(hex(target.subarray(7, 7 + length))).toBe(hex(encodeExample(value)));
    expect(target[6]).toBe(0xee);
    expect(target[7 + length]).toBe(0xee);
  });

  test('encodeInto refuses a target without room', () => {
    const value = example({ a: int64(1) });
    expect(() => encodeInto(value, new Uint8Array(encodedLength(value) - 1), 0)).toThrow(/needs 14 bytes/);
  });

  test('rejects values of the wrong type with FEATURE_TYPE naming the feature', () => {
    const bad = { features: { n: { kind: 'int64', value: [1] } } } as never;
    try {
      encodeExample(bad);
      expect.unreachable();
    } catch (error) {
      expect(TfpipeError.is(error) && error.code).toBe('FEATURE_TYPE');
      expect((error as TfpipeError).position.field).toBe('n');
    }
    expect(() => encodeExample({ features: { s: { kind: 'float', value: ['1'] } } } as never)).toThrow(
      TfpipeError,
    );
    expect(() => encodeExample({ features: { s: { kind: 'bytes', value: ['x'] } } } as never)).toThrow(
      TfpipeError,
    );
    expect(() => encodeExample(example({ '\uD800': int64(1) }))).toThrow(/lone surrogate/);
  });
});

describe('encoder against protobufjs (property)', () => {
  test('Example bytes are identical to protobufjs with sorted keys', () => {
    fc.assert(
      fc.property(exampleArbitrary, (value) => {
        const ours = encodeExample(value);
        expect(hex(ours)).toBe(hex(referenceEncodeExample(value)));
        expect(encodedLength(value)).toBe(ours.length);
      }),
      RUNS,
    );
  });

  test('SequenceExample bytes are identical to protobufjs with sorted keys', () => {
    fc.assert(
      fc.property(sequenceExampleArbitrary, (value) => {
        expect(hex(encodeSequenceExample(value))).toBe(hex(referenceEncodeSequenceExample(value)));
        expect(encodedLength(value)).toBe(encodeSequenceExample(value).length);
      }),
      RUNS,
    );
  });

  test('an empty SequenceExample still writes both (empty) fields, like protobufjs', () => {
    const value = sequenceExample({}, {});
    expect(hex(encodeSequenceExample(value))).toBe('0a001200');
    expect(hex(referenceEncodeSequenceExample(value))).toBe('0a001200');
  });
});

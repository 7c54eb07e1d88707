import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { TfpipeError } from '../errors/tfpipe-error.js';
import type { Feature } from '../model/feature.js';
import { bytes, float, int64 } from '../model/feature.js';
import { example } from '../model/example.js';
import {
  exampleArbitrary,
  narrowFeature,
  plainFeatures,
  sequenceExampleArbitrary,
} from './codec-test-helpers.js';
import { decodeExample, decodeSequenceExample } from './decode-example.js';
import { encodeExample, encodeSequenceExample } from './encode-example.js';
import { tfProto } from './tf-proto.js';

const RUNS = { seed: 7, numRuns: 300 };
const fromHex = (text: string): Uint8Array =>
  Uint8Array.from(text.replace(/\s/g, '').match(/../g) ?? [], (pair) => parseInt(pair, 16));
const utf8 = (text: string): string =>
  Array.from(new TextEncoder().encode(text), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** Hand-built wire bytes: a length-delimited field. */
function field(tag: number, payload: string): string {
  const length = payload.length / 2;
  return (
    tag.toString(16).padStart(2, '0') +
    (length < 128
      ? length.toString(16).padStart(2, '0')
      : ((length & 0x7f) | 0x80).toString(16) + (length >> 7).toString(16).padStart(2, '0')) +
    payload
  );
}
const entry = (key: string, feature: string): string =>
  field(0x0a, field(0x0a, utf8(key)) + field(0x12, feature));
const exampleOf = (...entries: string[]): Uint8Array => fromHex(field(0x0a, entries.join('')));

function values(feature: Feature | undefined): unknown[] {
  return feature === undefined ? [] : Array.from(feature.value as ArrayLike<unknown>);
}

describe('decodeExample tolerance (hand-built bytes)', () => {
  test('unpacked floats (tag 0x0d per value) and unpacked int64s (tag 0x08 per value)', () => {
    const floats = field(0x12, '0d0000c03f' + '0d000020c0');
    const ints = field(0x1a, '0801' + '08ffffffffffffffffff01' + '08ac02');
    const decoded = decodeExample(exampleOf(entry('f', floats), entry('i', ints)));
    expect(values(decoded.features.f)).toEqual([1.5, -2.5]);
    expect(values(decoded.features.i)).toEqual([1n, -1n, 300n]);
  });

  test('several packed chunks, mixed with unpacked values, keep their order', () => {
    const floats = field(0x12, field(0x0a, '0000803f') + '0d00000040' + field(0x0a, '0000404000008040'));
    const ints = field(0x1a, field(0x0a, '0102') + '0803' + field(0x0a, '04'));
    const decoded = decodeExample(exampleOf(entry('f', floats), entry('i', ints)));
    expect(values(decoded.features.f)).toEqual([1, 2, 3, 4]);
    expect(values(decoded.features.i)).toEqual([1n, 2n, 3n, 4n]);
  });

  test('features given twice merge; a key given twice keeps the last value', () => {
    const first = field(
      0x0a,
      entry('a', field(0x1a, field(0x0a, '01'))) + entry('b', field(0x1a, field(0x0a, '02'))),
    );
    const second = field(0x0a, entry('a', field(0x1a, field(0x0a, '09'))));
    const decoded = decodeExample(fromHex(first + second));
    expect(Object.keys(decoded.features).sort()).toEqual(['a', 'b']);
    expect(values(decoded.features.a)).toEqual([9n]);
    expect(values(decoded.features.b)).toEqual([2n]);
  });

  test('a list given twice in one Feature merges; another kind replaces it (oneof)', () => {
    const merged = field(0x0a, field(0x0a, '78')) + field(0x0a, field(0x0a, '79'));
    const replaced = field(0x1a, field(0x0a, '05')) + field(0x12, field(0x0a, '0000803f'));
    const decoded = decodeExample(exampleOf(entry('m', merged), entry('r', replaced)));
    expect(decoded.features.m).toEqual(bytes('x', 'y'));
    expect(decoded.features.r?.kind).toBe('float');
    expect(values(decoded.features.r)).toEqual([1]);
  });

  test('unknown fields of every wire type are skipped, at every level', () => {
    const unknown =
      '2801' +
      '3101020304050607 08'.replace(' ', '') +
      field(0x3a, 'abcd') +
      '3d01020304' +
      '43' +
      '4801' +
      '44';
    const feature = field(0x1a, unknown + field(0x0a, '07')) + unknown;
    const decoded = decodeExample(
      fromHex(
        unknown + field(0x0a, unknown + field(0x0a, unknown + field(0x0a, utf8('k')) + field(0x12, feature))),
      ),
    );
    expect(decoded.features.k).toEqual(int64(7));
  });

  test('a Feature with no kind is present but empty', () => {
    const decoded = decodeExample(exampleOf(entry('empty', '')));
    expect(decoded.features.empty).toEqual({ kind: 'none', value: [] });
  });

  test('an empty input is an Example with no features; a feature map has a null prototype', () => {
    const decoded = decodeExample(new Uint8Array(0));
    expect(Object.getPrototypeOf(decoded.features)).toBe(null);
    const proto = decodeExample(encodeExample(example({ ['__proto__']: int64(1), constructor: float(1) })));
    expect(Object.keys(proto.features).sort()).toEqual(['__proto__', 'constructor']);
    expect(proto.features.__proto__).toEqual(int64(1));
  });

  test('a key with a byte order mark keeps it', () => {
    expect(Object.keys(decodeExample(exampleOf(entry('\uFEFFk', ''))).features)).toEqual(['\uFEFFk']);
  });
});

function expectDecodeError(bytesHex: string, byteOffset: number, reason: RegExp): void {
  try {
    decodeExample(fromHex(bytesHex));
  } catch (error) {
    expect(TfpipeError.is(error)).toBe(true);
    expect((error as TfpipeError).code).toBe('PROTO_DECODE');
    expect((error as TfpipeError).position.byteOffset).toBe(byteOffset);
    expect((error as TfpipeError).message).toMatch(reason);
    return;
  }
  expect.unreachable(`decoded ${bytesHex}`);
}

describe('decodeExample rejects malformed input with PROTO_DECODE and the byte offset', () => {
  test('truncated varint', () => expectDecodeError('0a0c0a0a0a016112051a030a01', 1, /length 12 runs past/));
  test('truncated tag varint', () => expectDecodeError('80', 0, /truncated varint/));
  test('a length past 2^53 is named exactly, not rounded', () =>
    expectDecodeError('0a' + '8180808080808010', 1, /length 9007199254740993 runs past/));
  test('length beyond the buffer, inside a nested message', () =>
    expectDecodeError('0a040a020a09', 5, /length 9 runs past/));
  test('invalid wire types 6 and 7', () => {
    expectDecodeError('0e', 0, /wire type 6/);
    expectDecodeError('0a020f00', 2, /wire type 7/);
  });
  test('varint longer than 10 bytes', () =>
    expectDecodeError('10' + 'ff'.repeat(10) + '01', 1, /longer than 10 bytes/));
  test('int64 varint longer than 10 bytes inside a packed list', () =>
    expectDecodeError(
      field(0x0a, entry('i', field(0x1a, field(0x0a, 'ff'.repeat(10) + '01')))),
      13,
      /longer than 10 bytes/,
    ));
  test('an unmatched end group, an unclosed group', () => {
    expectDecodeError('14', 0, /end-group/);
    expectDecodeError('130801', 0, /group not closed/);
    // A nested group left open: the error points at the outer group's start tag.
    expectDecodeError('131b0801', 0, /group not closed/);
    // A well-formed unknown group (field 2, holding a varint and a nested group) is skipped.
    expect(decodeExample(fromHex('13' + '0801' + '1b' + '1c' + '14')).features).toEqual({});
  });
  test('field number 0', () => expectDecodeError('0001', 0, /field number 0/));
  test('a known field with the wrong wire type', () =>
    expectDecodeError('0801', 0, /Example.features has wire type 0/));
  test('packed floats not a multiple of 4 bytes', () =>
    expectDecodeError(
      field(0x0a, entry('f', field(0x12, field(0x0a, '000000')))),
      13,
      /not a multiple of 4/,
    ));
  test('a key that is not valid UTF-8', () =>
    expectDecodeError(field(0x0a, field(0x0a, field(0x0a, 'c328'))), 6, /not valid UTF-8/));
});

describe('decoder properties', () => {
  test('decode(encode(x)) equals x with floats narrowed to float32', () => {
    fc.assert(
      fc.property(exampleArbitrary, (value) => {
        const decoded = decodeExample(encodeExample(value));
        expect(plainFeatures(decoded.features)).toEqual(plainFeatures(value.features));
        for (const key of Object.keys(value.features)) {
          expect(decoded.features[key]).toEqual(narrowFeature(value.features[key] as Feature));
        }
      }),
      RUNS,
    );
  });

  test('SequenceExample round trip', () => {
    fc.assert(
      fc.property(sequenceExampleArbitrary, (value) => {
        const decoded = decodeSequenceExample(encodeSequenceExample(value));
        expect(plainFeatures(decoded.context)).toEqual(plainFeatures(value.context));
        expect(Object.keys(decoded.featureLists).sort()).toEqual(Object.keys(value.featureLists).sort());
        for (const key of Object.keys(value.featureLists)) {
          expect(decoded.featureLists[key]).toEqual(
            (value.featureLists[key] as Feature[]).map(narrowFeature),
          );
        }
      }),
      RUNS,
    );
  });

  test('protobufjs decodes our bytes to the same content', () => {
    const { Example } = tfProto();
    fc.assert(
      fc.property(exampleArbitrary, (value) => {
        const theirs = Example.toObject(Example.decode(encodeExample(value)), {
          longs: String,
          bytes: String,
        });
        expect(theirs.features ?? {}).toEqual(plainFeatures(value.features));
      }),
      RUNS,
    );
  });

  test('random and mutated bytes never throw anything but PROTO_DECODE', () => {
    const valid = fc.oneof(
      exampleArbitrary.map(encodeExample),
      sequenceExampleArbitrary.map(encodeSequenceExample),
    );
    const mutated = fc
      .tuple(
        valid,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        fc.nat(),
      )
      .map(([data, flips, cut]) => {
        const copy = data.slice(0, data.length === 0 ? 0 : data.length - (cut % Math.min(3, data.length)));
        for (const [position, byte] of flips) if (copy.length > 0) copy[position % copy.length] = byte;
        return copy;
      });
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), mutated), (data) => {
        for (const decode of [decodeExample, decodeSequenceExample]) {
          try {
            decode(data);
          } catch (error) {
            expect(TfpipeError.is(error) && error.code).toBe('PROTO_DECODE');
            const offset = (error as TfpipeError).position.byteOffset as number;
            expect(offset).toBeGreaterThanOrEqual(0);
            expect(offset).toBeLessThanOrEqual(data.length);
          }
        }
      }),
      { seed: 11, numRuns: 3000 },
    );
  });

  test('a decoded float list is a Float32Array', () => {
    expect(decodeExample(encodeExample(example({ f: float(0.5, 2) }))).features.f?.value).toBeInstanceOf(
      Float32Array,
    );
  });
});

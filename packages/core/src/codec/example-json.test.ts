import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { TfpipeError } from '../errors/tfpipe-error.js';
import { bytes, emptyFeature, float, int64 } from '../model/feature.js';
import { example, sequenceExample } from '../model/example.js';
import { exampleArbitrary, narrowFeature, sequenceExampleArbitrary } from './codec-test-helpers.js';
import { decodeExample } from './decode-example.js';
import { exampleFromJson, sequenceExampleFromJson } from './example-from-json.js';
import {
  exampleToJson,
  exampleToJsonText,
  sequenceExampleToJson,
  sequenceExampleToJsonText,
} from './example-to-json.js';
import { encodeExample, encodeSequenceExample } from './encode-example.js';
import { floatToJson } from './json-float.js';
import { jsonText } from './json-text.js';
import { tfProto } from './tf-proto.js';

const RUNS = { seed: 99, numRuns: 300 };
const hex = (data: Uint8Array): string =>
  Array.from(data, (byte) => byte.toString(16).padStart(2, '0')).join('');

describe('exampleToJson', () => {
  test('writes the proto3 JSON mapping', () => {
    const json = exampleToJson(
      example({
        age: int64(42),
        name: bytes('hi'),
        score: float(0.1, NaN, Infinity, -Infinity),
        empty: emptyFeature(),
        none: int64(),
      }),
    );
    expect(JSON.stringify(json)).toBe(
      '{"features":{"feature":{"age":{"int64List":{"value":["42"]}},"empty":{},"name":{"bytesList":{"value":["aGk="]}},' +
        '"none":{"int64List":{}},"score":{"floatList":{"value":[0.1,"NaN","Infinity","-Infinity"]}}}}}',
    );
  });

  test('floats print as protobuf prints them: 6 significant digits when they round-trip, up to 9 otherwise', () => {
    // Values and texts from protobuf's json_format (Python ToShortestFloat) and SimpleFtoa (%.6g, %.9g).
    expect(floatToJson(Math.fround(0.1))).toBe(0.1);
    expect(floatToJson(Math.fround(0.9))).toBe(0.9);
    expect(floatToJson(16777216)).toBe(16777216);
    expect(floatToJson(Math.fround(1.1234567))).toBe(1.1234567);
    expect(floatToJson(Math.fround(3.4028234663852886e38))).toBe(
      3.40282e38 === Math.fround(3.40282e38) ? 3.40282e38 : 3.4028235e38,
    );
    expect(floatToJson(1e-45)).toBe(1.4013e-45); // '%.6g' of the smallest subnormal
    expect(Object.is(floatToJson(-0), -0)).toBe(true);
    expect(floatToJson(1.5)).toBe(1.5);
  });

  test('int64 extremes are exact decimal strings; bytes are padded standard base64', () => {
    const json = exampleToJson(
      example({
        i: int64(-(2n ** 63n), 2n ** 63n - 1n),
        b: bytes(new Uint8Array([0xfb, 0xff]), new Uint8Array([0xfb])),
      }),
    );
    expect(json.features?.feature?.i?.int64List?.value).toEqual([
      '-9223372036854775808',
      '9223372036854775807',
    ]);
    expect(json.features?.feature?.b?.bytesList?.value).toEqual(['+/8=', '+w==']);
  });

  test('SequenceExample form', () => {
    const json = sequenceExampleToJson(
      sequenceExample({ f: float(1) }, { s: [int64(1), emptyFeature()], t: [] }),
    );
    expect(JSON.stringify(json)).toBe(
      '{"context":{"feature":{"f":{"floatList":{"value":[1]}}}},"featureLists":{"featureList":{"s":{"feature":[{"int64List":{"value":["1"]}},{}]},"t":{}}}}',
    );
  });

  test('a feature called __proto__ survives to JSON and back', () => {
    const text = JSON.stringify(exampleToJson(example({ ['__proto__']: int64(3) })));
    expect(text).toBe('{"features":{"feature":{"__proto__":{"int64List":{"value":["3"]}}}}}');
    expect(exampleFromJson(text).features.__proto__).toEqual(int64(3));
  });
});

describe('exampleFromJson', () => {
  test('reads what proto3 JSON parsers read: snake_case names, numbers for int64, strings for floats, URL-safe base64, null', () => {
    const parsed = exampleFromJson({
      features: {
        feature: {
          a: { int64_list: { value: [1, '-2'] } },
          b: { float_list: { value: ['1.5', 2, 'NaN', '-Infinity'] } },
          c: { bytes_list: { value: ['-_8', '+/8='] } },
          d: {},
          e: { int64List: null },
        },
      },
    });
    expect(parsed.features.a).toEqual(int64(1, -2));
    expect(Array.from(parsed.features.b?.value as Float32Array)).toEqual([1.5, 2, NaN, -Infinity]);
    expect(parsed.features.c).toEqual(bytes(new Uint8Array([0xfb, 0xff]), new Uint8Array([0xfb, 0xff])));
    expect(parsed.features.d).toEqual(emptyFeature());
    expect(parsed.features.e).toEqual(emptyFeature());
    expect(Object.keys(exampleFromJson({}).features)).toEqual([]);
  });

  test('SequenceExample with snake_case names', () => {
    const parsed = sequenceExampleFromJson(
      '{"context":{},"feature_lists":{"feature_list":{"s":{"feature":[{"int64_list":{"value":["5"]}}]}}}}',
    );
    expect(parsed.featureLists.s).toEqual([int64(5)]);
  });

  test.each([
    [
      { features: { feature: { age: { int64List: { value: ['1', '2', 'x'] } } } } },
      'features.feature.age.int64List.value[2]',
    ],
    [
      { features: { feature: { age: { int64List: { value: [2 ** 60] } } } } },
      'features.feature.age.int64List.value[0]',
    ],
    [
      { features: { feature: { age: { int64List: { value: ['9223372036854775808'] } } } } },
      'features.feature.age.int64List.value[0]',
    ],
    [
      { features: { feature: { f: { floatList: { value: [1e39] } } } } },
      'features.feature.f.floatList.value[0]',
    ],
    [
      { features: { feature: { f: { floatList: { value: ['one'] } } } } },
      'features.feature.f.floatList.value[0]',
    ],
    [
      { features: { feature: { b: { bytesList: { value: ['a$=='] } } } } },
      'features.feature.b.bytesList.value[0]',
    ],
    [{ features: { feature: { k: { int64List: {}, floatList: {} } } } }, 'features.feature.k'],
    [{ features: { feature: { k: { stringList: {} } } } }, 'features.feature.k.stringList'],
    [{ features: { feature: { k: null } } }, 'features.feature.k'],
    [{ features: { feature: [] } }, 'features.feature'],
    [{ feature: {} }, 'feature'],
    [{ features: { feature: { k: { int64List: { value: 5 } } } } }, 'features.feature.k.int64List.value'],
  ])('rejects %j with JSON_FORM at %s', (json, path) => {
    try {
      exampleFromJson(json);
      expect.unreachable();
    } catch (error) {
      expect(TfpipeError.is(error) && error.code).toBe('JSON_FORM');
      expect((error as TfpipeError).position.field).toBe(path);
    }
  });

  test('text that is not JSON is JSON_PARSE', () => {
    expect(() => exampleFromJson('{"features":')).toThrow(
      expect.objectContaining({ code: 'JSON_PARSE' }) as Error,
    );
  });
});

/** The float32 bits of the first float value of `feature` in `bytes`' Example, as hex. */
const NEGATIVE_ZERO_BITS = '00000080';

describe('float -0 keeps its sign in every JSON path', () => {
  const signed = example({ f: float(-0, 0, -1.5) });

  test('JSON text writes -0 as protobuf does; JSON.stringify would write 0', () => {
    expect(exampleToJsonText(signed)).toBe(
      '{"features":{"feature":{"f":{"floatList":{"value":[-0,0,-1.5]}}}}}',
    );
    expect(JSON.stringify(exampleToJson(signed))).toContain('[0,0,-1.5]');
  });

  test('JSON text, JSON objects and numeric strings read -0 back with its sign bit', () => {
    const fromText = encodeExample(exampleFromJson(exampleToJsonText(signed)));
    expect(hex(fromText)).toBe(hex(encodeExample(signed)));
    expect(hex(fromText)).toContain(NEGATIVE_ZERO_BITS);
    for (const value of [-0, '-0', '-0.0', '-0e3']) {
      const parsed = exampleFromJson({ features: { feature: { f: { floatList: { value: [value] } } } } });
      expect(Object.is((parsed.features.f?.value as Float32Array)[0], -0)).toBe(true);
    }
  });

  test('SequenceExample text keeps -0 in the context and in feature lists', () => {
    const sequence = sequenceExample({ c: float(-0) }, { s: [float(1, -0)] });
    const text = sequenceExampleToJsonText(sequence);
    expect(text).toBe(
      '{"context":{"feature":{"c":{"floatList":{"value":[-0]}}}},"featureLists":{"featureList":{"s":{"feature":[{"floatList":{"value":[1,-0]}}]}}}}',
    );
    expect(hex(encodeSequenceExample(sequenceExampleFromJson(text)))).toBe(
      hex(encodeSequenceExample(sequence)),
    );
  });

  test('jsonText is JSON.stringify but for -0', () => {
    const value = { a: [1, -0, 'x', null, true, { b: -0 }], c: undefined, d: '\u2028"' };
    expect(jsonText(value)).toBe('{"a":[1,-0,"x",null,true,{"b":-0}],"d":"\u2028\\""}');
    const plain = { a: [1, 0, 'x', null, true, { b: 1e-7 }], c: undefined, d: '\u2028"', e: [undefined] };
    expect(jsonText(plain)).toBe(JSON.stringify(plain));
    expect(Object.is((JSON.parse(jsonText([-0])) as number[])[0], -0)).toBe(true);
  });
});

describe('JSON properties', () => {
  test('fromJson(toJson(x)) equals x (float32 narrowed), as objects and through JSON text (-0 included)', () => {
    fc.assert(
      fc.property(exampleArbitrary, (value) => {
        const expected = hex(
          encodeExample({
            features: Object.fromEntries(
              Object.entries(value.features).map(([key, feature]) => [key, narrowFeature(feature)]),
            ),
          }),
        );
        expect(hex(encodeExample(exampleFromJson(exampleToJson(value))))).toBe(expected);
        expect(hex(encodeExample(exampleFromJson(exampleToJsonText(value))))).toBe(expected);
      }),
      RUNS,
    );
  });

  test('SequenceExample JSON round trip', () => {
    fc.assert(
      fc.property(sequenceExampleArbitrary, (value) => {
        expect(hex(encodeSequenceExample(sequenceExampleFromJson(sequenceExampleToJson(value))))).toBe(
          hex(
            encodeSequenceExample(
              sequenceExampleFromJson(
                sequenceExampleToJson(sequenceExampleFromJson(sequenceExampleToJson(value))),
              ),
            ),
          ),
        );
        expect(
          Object.keys(sequenceExampleFromJson(sequenceExampleToJson(value)).featureLists).sort(),
        ).toEqual(Object.keys(value.featureLists).sort());
      }),
      RUNS,
    );
  });

  test('protobufjs reads our JSON form to the same message', () => {
    const { Example } = tfProto();
    fc.assert(
      // protobufjs's fromObject assigns map keys with `obj[key] =`, so it loses a key called __proto__.
      fc.property(
        exampleArbitrary.filter((value) => !Object.keys(value.features).includes('__proto__')),
        (value) => {
          const theirs = Example.encode(Example.fromObject(exampleToJson(value))).finish();
          expect(hex(encodeExample(decodeExample(theirs)))).toBe(
            hex(encodeExample(exampleFromJson(exampleToJson(value)))),
          );
        },
      ),
      RUNS,
    );
  });
});

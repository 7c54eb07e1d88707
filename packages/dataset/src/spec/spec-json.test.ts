import { TfpipeError } from '@tfpipe/core';
import { describe, expect, test } from 'vitest';
import { fixedLen, fixedLenSequence, ragged, sparse, varLen } from './feature-spec.js';
import { rowLengths, uniformRowLength } from './ragged-partition.js';
import { specFromJson, specFromJsonText, specToJson } from './spec-json.js';

function failure(run: () => unknown): TfpipeError {
  try {
    run();
  } catch (error) {
    if (TfpipeError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a TfpipeError');
}

describe('specFromJson', () => {
  test('builds the same specs as the factories, every kind and option', () => {
    const json = {
      features: {
        label: { type: 'fixedLen', shape: [], dtype: 'int64' },
        big: { type: 'fixedLen', shape: [2], dtype: 'int64', default: ['9223372036854775807', -3] },
        grid: {
          type: 'fixedLen',
          shape: [2, 2],
          dtype: 'float32',
          default: [
            [1, 2],
            [3, 4.5],
          ],
        },
        name: { type: 'fixedLen', shape: [], dtype: 'string', default: 'ünknown' },
        tags: { type: 'varLen', dtype: 'string' },
        weights: {
          type: 'sparse',
          indexKey: 'ix',
          valueKey: 'w',
          dtype: 'float32',
          size: 10,
          alreadySorted: true,
        },
        boxes: {
          type: 'ragged',
          dtype: 'float32',
          valueKey: 'xs',
          partitions: [
            { type: 'rowLengths', key: 'n' },
            { type: 'uniformRowLength', length: 4 },
          ],
        },
        steps: { type: 'fixedLenSequence', shape: [3], dtype: 'int32', allowMissing: true, default: -1 },
      },
    };
    const { features, featureLists } = specFromJson(json);
    expect(featureLists).toBeUndefined();
    expect({ ...features }).toEqual({
      label: fixedLen([], 'int64'),
      big: fixedLen([2], 'int64', { default: [9223372036854775807n, -3] }),
      grid: fixedLen([2, 2], 'float32', {
        default: [
          [1, 2],
          [3, 4.5],
        ],
      }),
      name: fixedLen([], 'string', { default: 'ünknown' }),
      tags: varLen('string'),
      weights: sparse({ indexKey: 'ix', valueKey: 'w', dtype: 'float32', size: 10, alreadySorted: true }),
      boxes: ragged('float32', { valueKey: 'xs', partitions: [rowLengths('n'), uniformRowLength(4)] }),
      steps: fixedLenSequence([3], 'int32', { allowMissing: true, default: -1 }),
    });
    // And back: the JSON form written by specToJson is the file that was read.
    expect(JSON.parse(JSON.stringify(specToJson(features)))).toEqual(json);
  });

  test('a feature named __proto__ is a feature, not a prototype', () => {
    const { features } = specFromJsonText('{"features":{"__proto__":{"type":"varLen","dtype":"int64"}}}');
    expect(Object.keys(features)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(features)).toBeNull();
    expect(features['__proto__']).toEqual(varLen('int64'));
    expect(Object.keys(specToJson(features).features)).toEqual(['__proto__']);
  });

  test('SequenceExample specs: featureLists beside the context', () => {
    const { features, featureLists } = specFromJson({
      features: { id: { type: 'fixedLen', shape: [], dtype: 'string' } },
      featureLists: {
        frames: { type: 'fixedLenSequence', shape: [2], dtype: 'float32' },
        words: { type: 'varLen', dtype: 'string' },
        ids: { type: 'ragged', dtype: 'int64' },
      },
    });
    expect(Object.keys(features)).toEqual(['id']);
    expect({ ...featureLists }).toEqual({
      frames: fixedLenSequence([2], 'float32'),
      words: varLen('string'),
      ids: ragged('int64'),
    });
  });

  test.each([
    [[], '$: expected an object, got an array'],
    [{}, '$.features: missing (an object of feature specs, may be {})'],
    [{ features: {}, extra: 1 }, '$.extra: unknown field (expected one of features, featureLists, $schema)'],
    [{ features: [] }, '$.features: expected an object, got an array'],
    [{ features: { a: 'int64' } }, '$.features.a: expected an object, got "int64"'],
    [
      { features: { a: { type: 'fixed', dtype: 'int64' } } },
      '$.features.a.type: expected one of fixedLen, varLen, sparse, ragged, fixedLenSequence, got "fixed"',
    ],
    [
      { features: { 'image/encoded': { type: 'varLen', dtype: 'bytes' } } },
      '$.features["image/encoded"].dtype: expected one of int64, int32, number, float32, string, got "bytes"',
    ],
    [
      { features: { a: { type: 'fixedLen', dtype: 'int64' } } },
      '$.features.a.shape: expected an array of dimensions like [] or [3], got nothing',
    ],
    [
      { features: { a: { type: 'fixedLen', shape: [2, 0], dtype: 'int64' } } },
      '$.features.a.shape[1]: expected a positive whole number, got 0',
    ],
    [
      { features: { a: { type: 'fixedLen', shape: [100000000, 100000000], dtype: 'int64' } } },
      '$.features.a.shape: holds 10000000000000000 values per record, more than a tensor can hold (2147483647)',
    ],
    [
      { features: { a: { type: 'fixedLen', shape: [1.5], dtype: 'int64' } } },
      '$.features.a.shape[0]: expected a positive whole number, got 1.5',
    ],
    [
      { features: { a: { type: 'varLen', dtype: 'int64', shape: [] } } },
      '$.features.a.shape: unknown field (expected one of type, dtype)',
    ],
    [
      { features: { a: { type: 'fixedLen', shape: [2], dtype: 'int64', default: [1] } } },
      '$.features.a.default: default has 1 values, but its shape holds 2',
    ],
    [
      { features: { a: { type: 'fixedLen', shape: [], dtype: 'int32', default: '2147483648' } } },
      '$.features.a.default: default value 2147483648 does not fit dtype int32',
    ],
    [
      { features: { a: { type: 'fixedLen', shape: [], dtype: 'int64', default: 1.5 } } },
      '$.features.a.default: expected an integer (a whole number within ±(2^53 - 1), or a decimal string), got 1.5',
    ],
    [
      { features: { a: { type: 'fixedLen', shape: [2], dtype: 'string', default: ['x', 3] } } },
      '$.features.a.default[1]: expected text, got 3',
    ],
    [
      { features: { a: { type: 'sparse', indexKey: ['i', 'j'], valueKey: 'v', dtype: 'int64', size: [3] } } },
      '$.features.a.size: has 1 sizes, but indexKey names 2 features',
    ],
    [
      { features: { a: { type: 'sparse', indexKey: 'i', valueKey: '', dtype: 'int64', size: 3 } } },
      '$.features.a.valueKey: expected a feature name, got ""',
    ],
    [
      { features: { a: { type: 'ragged', dtype: 'int64', partitions: [{ type: 'rowSplit', key: 'k' }] } } },
      '$.features.a.partitions[0].type: expected one of rowSplits, rowLengths, rowStarts, rowLimits, valueRowIds, uniformRowLength, got "rowSplit"',
    ],
    [
      {
        features: {
          a: { type: 'ragged', dtype: 'int64', partitions: [{ type: 'uniformRowLength', length: -2 }] },
        },
      },
      '$.features.a.partitions[0].length: expected a positive whole number, got -2',
    ],
    [
      { features: { a: { type: 'fixedLenSequence', shape: [], dtype: 'int64', allowMissing: 'yes' } } },
      '$.features.a.allowMissing: expected true or false, got "yes"',
    ],
    [
      { features: {}, featureLists: { f: { type: 'fixedLen', shape: [], dtype: 'int64' } } },
      '$.featureLists.f.type: a feature list takes fixedLenSequence, varLen or ragged without partitions',
    ],
  ])('refuses %j: %s', (json, message) => {
    const error = failure(() => specFromJson(json, 'spec.json'));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.detail).toBe(message);
    expect(error.position.file).toBe('spec.json');
  });

  test('the error names the feature in position.field', () => {
    const error = failure(() => specFromJson({ features: { 'a b': { type: 'varLen', dtype: 'x' } } }));
    expect(error.position.field).toBe('a b');
    expect(error.detail).toMatch(/^\$\.features\["a b"\]\.dtype: /);
  });

  test('text that is not JSON is INVALID_OPTION with the parser reason and the file', () => {
    const error = failure(() => specFromJsonText('{"features": {', 'spec.json'));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.detail).toMatch(/^the spec is not JSON: /);
    expect(error.position.file).toBe('spec.json');
  });
});

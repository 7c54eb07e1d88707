import { describe, expect, expectTypeOf, it } from 'vitest';
import { fixedLen, fixedLenSequence, ragged, sparse, varLen } from '../spec/feature-spec.js';
import type { DenseTensor, RaggedTensor, SparseTensor } from '../tensor.js';
import { parseExample } from './parse-example.js';
import { parseSequenceExample } from './sequence/parse-sequence-example.js';

// These tests are about types: `tsc --noEmit` checks them (an unneeded `@ts-expect-error` is itself
// an error); the runtime part only compiles the specs.
describe('parseExample typing', () => {
  it('types each output from its spec, without casts', () => {
    const parser = parseExample({
      label: fixedLen([], 'int64'),
      image: fixedLen([], 'string'),
      small: fixedLen([2], 'int32'),
      count: fixedLen([], 'number', { default: 0 }),
      scores: varLen('float32'),
      ids: sparse({ indexKey: 'idx', valueKey: 'val', dtype: 'int64', size: 10 }),
      boxes: ragged('float32'),
      steps: fixedLenSequence([], 'string', { allowMissing: true }),
    });
    const check = (): void => {
      const batch = parser.parse([]);
      expectTypeOf(batch.label).toEqualTypeOf<DenseTensor<'int64'>>();
      expectTypeOf(batch.label.data).toEqualTypeOf<BigInt64Array>();
      expectTypeOf(batch.image.data).toEqualTypeOf<Uint8Array[]>();
      expectTypeOf(batch.small.data).toEqualTypeOf<Int32Array>();
      expectTypeOf(batch.count.data).toEqualTypeOf<Float64Array>();
      expectTypeOf(batch.scores).toEqualTypeOf<SparseTensor<'float32'>>();
      expectTypeOf(batch.scores.data).toEqualTypeOf<Float32Array>();
      expectTypeOf(batch.ids.indices).toEqualTypeOf<BigInt64Array>();
      expectTypeOf(batch.boxes).toEqualTypeOf<RaggedTensor<'float32'>>();
      expectTypeOf(batch.steps.data).toEqualTypeOf<Uint8Array[]>();
      // @ts-expect-error -- no output named "labels"
      void batch.labels;
    };
    expect(typeof check).toBe('function');
  });

  it('checks defaults against the dtype', () => {
    const check = (): void => {
      fixedLen([], 'string', { default: 'x' });
      fixedLen([], 'int64', { default: 1n });
      // @ts-expect-error -- a string feature's default is text or bytes
      fixedLen([], 'string', { default: 1 });
      // @ts-expect-error -- a float feature's default is a number
      fixedLen([], 'float32', { default: 'x' });
      // @ts-expect-error -- not a dtype
      varLen('float64');
    };
    expect(typeof check).toBe('function');
  });

  it('types a SequenceExample batch, with lengths only for dense feature lists', () => {
    const parser = parseSequenceExample(
      { id: fixedLen([], 'string') },
      { frames: fixedLenSequence([3], 'float32'), tags: varLen('string') },
    );
    const check = (): void => {
      const batch = parser.parse([]);
      expectTypeOf(batch.context.id.data).toEqualTypeOf<Uint8Array[]>();
      expectTypeOf(batch.featureLists.frames.data).toEqualTypeOf<Float32Array>();
      expectTypeOf(batch.featureLists.tags).toEqualTypeOf<SparseTensor<'string'>>();
      expectTypeOf(batch.lengths.frames).toEqualTypeOf<DenseTensor<'int64'>>();
      // @ts-expect-error -- a sparse feature list has no lengths
      void batch.lengths.tags;
    };
    expect(typeof check).toBe('function');
  });
});

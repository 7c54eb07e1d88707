import { describe, expect, expectTypeOf, test } from 'vitest';
import { reportOf, withPosition } from '../contract/plugin-contract.js';
import { TfpipeError } from '../errors/tfpipe-error.js';
import { encodeExample, encodeSequenceExample } from '../codec/encode-example.js';
import type { Example, SequenceExample } from '../model/example.js';
import { example, sequenceExample } from '../model/example.js';
import { int64 } from '../model/feature.js';
import { parseExamples } from './parse-examples.js';
import { collect, fromArray } from '../testing/index.js';

/** The values through one stage, collected. */
const through = <In, Out>(values: readonly In[], stage: TransformStream<In, Out>): Promise<Out[]> =>
  collect(fromArray(values).pipeThrough(stage));

describe('parseExamples', () => {
  test('decodes bytes and { data } records; payloadType picks the output type', async () => {
    const examples = await through(
      [encodeExample(example({ a: int64(1) })), { data: encodeExample(example({ a: int64(2) })) }],
      parseExamples(),
    );
    expect(examples.map((value) => value.features.a)).toEqual([int64(1), int64(2)]);
    const stage = parseExamples({ payloadType: 'SequenceExample' });
    expectTypeOf(stage).toExtend<TransformStream<Uint8Array, SequenceExample>>();
    expectTypeOf(parseExamples()).toExtend<TransformStream<Uint8Array, Example>>();
    const sequences = await through(
      [encodeSequenceExample(sequenceExample({ c: int64(3) }, { l: [int64(4)] }))],
      stage,
    );
    expect(sequences[0]?.featureLists.l).toEqual([int64(4)]);
  });

  test('a malformed record fails with PROTO_DECODE, the record position and the offset in the payload', async () => {
    const records = [
      { data: encodeExample(example({ a: int64(1) })), file: 'a.tfrecord', recordIndex: 0, byteOffset: 0 },
      { data: new Uint8Array([0x0a, 0x09]), file: 'a.tfrecord', recordIndex: 1, byteOffset: 30 },
    ];
    const failure = await through(records, parseExamples()).catch((error: unknown) => error);
    expect(TfpipeError.is(failure) && failure.code).toBe('PROTO_DECODE');
    expect((failure as TfpipeError).position).toMatchObject({
      file: 'a.tfrecord',
      recordIndex: 1,
      byteOffset: 30,
    });
    expect((failure as TfpipeError).message).toMatch(/byte 1 of the payload/);
    expect((failure as TfpipeError).stage).toBe('parseExamples');
  });

  test("onError 'skip' drops bad records, counts them and calls onSkip; positions come from withPosition too", async () => {
    const skipped: TfpipeError[] = [];
    const stage = parseExamples({ onError: 'skip', onSkip: (error) => skipped.push(error) });
    const bad = withPosition({ data: new Uint8Array([0xff]) }, { file: 'b.tfrecord', recordIndex: 7 });
    const output = await through(
      [bad, encodeExample(example({ a: int64(5) })), new Uint8Array([0x0e])],
      stage,
    );
    expect(output).toHaveLength(1);
    expect(skipped.map((error) => error.position.recordIndex)).toEqual([7, 2]);
    expect(skipped[0]?.position.file).toBe('b.tfrecord');
    expect(reportOf(stage)).toMatchObject({ stage: 'parseExamples', records: 1, skipped: 2 });
  });

  test('checks payloadType when called', () => {
    expect(() => parseExamples({ payloadType: 'Sequence' as never })).toThrow(/payloadType/);
  });
});

import { describe, expect, test } from 'vitest';
import { reportOf, withPosition } from '../contract/plugin-contract.js';
import { TfpipeError } from '../errors/tfpipe-error.js';
import { example, sequenceExample } from '../model/example.js';
import { float, int64 } from '../model/feature.js';
import { serializeExamples } from './serialize-examples.js';
import { collect, fromArray } from '../testing/index.js';

/** The values through one stage, collected. */
const through = <In, Out>(values: readonly In[], stage: TransformStream<In, Out>): Promise<Out[]> =>
  collect(fromArray(values).pipeThrough(stage));

const hex = (data: Uint8Array): string =>
  Array.from(data, (byte) => byte.toString(16).padStart(2, '0')).join('');

describe('serializeExamples', () => {
  test('turns Examples and SequenceExamples into their wire bytes, in order, and reports counts', async () => {
    const stage = serializeExamples();
    const output = await through(
      [example({ a: int64(1) }), sequenceExample({}, {}), example({ x: float(1.5) })],
      stage,
    );
    expect(output.map(hex)).toEqual([
      '0a0c0a0a0a016112051a030a0101',
      '0a001200',
      '0a0f0a0d0a0178120812060a040000c03f',
    ]);
    expect(reportOf(stage)).toEqual({ stage: 'serializeExamples', records: 3, bytes: 14 + 4 + 17 });
  });

  test('a value that cannot be encoded fails with FEATURE_TYPE and the row position', async () => {
    const bad = withPosition({ features: { n: { kind: 'int64', value: [1] } } } as never, {
      row: 4,
      file: 'rows.csv',
    });
    const failure = await through([bad], serializeExamples()).catch((error: unknown) => error);
    expect(TfpipeError.is(failure) && failure.code).toBe('FEATURE_TYPE');
    expect((failure as TfpipeError).position).toMatchObject({ row: 4, file: 'rows.csv', field: 'n' });
  });
});

import { describe, expect, it } from 'vitest';
import { withPosition } from '../contract/plugin-contract.js';
import { decodeSequenceExample } from '../codec/decode-example.js';
import { encodeSequenceExample } from '../codec/encode-example.js';
import { TfpipeError } from '../errors/tfpipe-error.js';
import { collect, fromArray } from '../testing/index.js';
import { buildSequenceExamples } from './build-sequence-examples.js';

describe('buildSequenceExamples', () => {
  it('makes one Feature per step from array fields and split strings, plus context', async () => {
    const rows = [
      {
        id: 'clip-1',
        frames: [
          [0.5, 1],
          [2, 3],
        ],
        tokens: '4 5 6',
        labels: [1, 0],
      },
    ];
    const [sequence] = await collect(
      fromArray(rows).pipeThrough(
        buildSequenceExamples({
          context: { id: 'bytes', length: { kind: 'int64', value: (row) => row.labels.length } },
          featureLists: { frames: 'float', tokens: { kind: 'int64', split: ' ' }, labels: 'int64' },
        }),
      ),
    );
    expect(sequence!.featureLists.frames).toEqual([
      { kind: 'float', value: [0.5, 1] },
      { kind: 'float', value: [2, 3] },
    ]);
    expect(sequence!.featureLists.tokens).toEqual(
      [4n, 5n, 6n].map((value) => ({ kind: 'int64', value: [value] })),
    );
    expect(sequence!.context.length).toEqual({ kind: 'int64', value: [2n] });
    // Through the wire and back: the codec reads what the builder made.
    const decoded = decodeSequenceExample(encodeSequenceExample(sequence!));
    expect(decoded.featureLists.labels).toEqual([
      { kind: 'int64', value: [1n] },
      { kind: 'int64', value: [0n] },
    ]);
  });

  it('applies the missing policy to a whole feature list', async () => {
    const build = (missing: 'omit' | 'empty') =>
      collect(
        fromArray([{}]).pipeThrough(
          buildSequenceExamples({ featureLists: { steps: { kind: 'int64', missing } } }),
        ),
      );
    expect((await build('omit'))[0]!.featureLists).toEqual({});
    expect((await build('empty'))[0]!.featureLists).toEqual({ steps: [] });
  });

  it('refuses a missing step and a cell that is not a list, with the row position', async () => {
    const stream = buildSequenceExamples({ featureLists: { steps: 'int64' } }, { onError: 'skip' });
    const rows = [
      withPosition({ steps: [1, null] }, { row: 0 }),
      withPosition({ steps: 7 }, { row: 1 }),
      { steps: [3] },
    ];
    const out = await collect(fromArray(rows).pipeThrough(stream));
    expect(out).toHaveLength(1);
    const error = await collect(
      fromArray([withPosition({ steps: 'x' }, { row: 4 })]).pipeThrough(
        buildSequenceExamples({ featureLists: { steps: 'int64' } }),
      ),
    ).catch((reason: unknown) => reason);
    expect(TfpipeError.is(error) && error.position).toEqual({ row: 4, field: 'steps' });
  });
});

import { batch, pipeline, shuffleBuffer, unbatch } from '@tfpipe/core';
import { markLending, SINK_RELEASES, STAGE_PASSES_RELEASE } from '@tfpipe/core/internal';
import { lendingSource, releasingSink, type LendingRow } from '@tfpipe/core/testing';
import { describe, expect, it } from 'vitest';
import { chainWritable } from './chain-writable.js';

type Row = LendingRow;

const passThrough = (): TransformStream<Row, Row> => new TransformStream<Row, Row>();

describe('chainWritable and buffer lending', () => {
  it('lends through chainWritable when its stages pass releases on and its sink releases', async () => {
    const marked = (): TransformStream<Row, Row> => markLending(passThrough(), STAGE_PASSES_RELEASE);
    expect(SINK_RELEASES in chainWritable([marked(), marked()], releasingSink())).toBe(true);
    expect(SINK_RELEASES in chainWritable([marked(), passThrough()], releasingSink())).toBe(false);
    expect(SINK_RELEASES in chainWritable([marked()], new WritableStream())).toBe(false);

    const { stream, released, switched } = lendingSource(12);
    const seen: number[] = [];
    const chain = chainWritable(
      [batch<Row>(5), unbatch<Row>(), shuffleBuffer<Row>({ size: 4, seed: 2 })],
      releasingSink(seen),
    );
    await pipeline(stream, chain).run();
    expect(switched()).toBe(true);
    expect([...seen].sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
    expect([...released].sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
    // Released as the sink saw them: in the shuffled order.
    expect(released).toEqual(seen);
  });
});

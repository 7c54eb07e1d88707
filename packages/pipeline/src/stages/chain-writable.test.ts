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

describe('chainWritable when aborted', () => {
  it.each([1, 2, 3])(
    'with %i stage(s), settles only once the sink has finished aborting (its temporaries removed)',
    async (stages) => {
      let sinkAborted = false;
      const sink = new WritableStream<Row>({
        async abort() {
          // A sink removing its temporaries takes a while.
          await new Promise((resolve) => setTimeout(resolve, 50));
          sinkAborted = true;
        },
      });
      const chain = chainWritable<Row>(
        Array.from({ length: stages }, () => passThrough()),
        sink,
      );
      const writer = chain.getWriter();
      await writer.write({ id: 1 });
      await writer.abort(new Error('stop'));
      expect(sinkAborted).toBe(true);
    },
  );

  it('fails only once the sink has finished aborting', async () => {
    let sinkAborted = false;
    const failing = new TransformStream<Row, Row>({
      transform() {
        throw new Error('bad row');
      },
    });
    const sink = new WritableStream<Row>({
      async abort() {
        await new Promise((resolve) => setTimeout(resolve, 50));
        sinkAborted = true;
      },
    });
    const writer = chainWritable<Row>([passThrough(), failing, passThrough()], sink).getWriter();
    await writer.write({ id: 1 });
    await expect(writer.close()).rejects.toThrow('bad row');
    expect(sinkAborted).toBe(true);
  });
});

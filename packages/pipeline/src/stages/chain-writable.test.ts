import {
  batch,
  lendingSwitch,
  markLending,
  PASSES_RELEASE,
  pipeline,
  releaseRecord,
  RELEASES,
  shuffleBuffer,
  unbatch,
  withRelease,
} from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { chainWritable } from './chain-writable.js';

interface Row {
  readonly id: number;
}

/** A source of `count` rows that lends them once switched on: each row carries a hook counting its release. */
function lendingSource(count: number): {
  readonly stream: ReadableStream<Row>;
  readonly released: number[];
  readonly switched: () => boolean;
} {
  const released: number[] = [];
  let lending = false;
  let next = 0;
  const stream = new ReadableStream<Row>({
    pull(controller) {
      if (next === count) {
        controller.close();
        return;
      }
      const row = { id: next++ };
      controller.enqueue(lending ? withRelease(row, () => released.push(row.id)) : row);
    },
  });
  return { stream: lendingSwitch(stream, () => (lending = true)), released, switched: () => lending };
}

/** A sink that releases each record once it has "copied" it, and remembers the ids it saw. */
function releasingSink(seen: number[] = []): WritableStream<Row | Row[]> {
  const sink = new WritableStream<Row | Row[]>({
    write(chunk) {
      for (const row of Array.isArray(chunk) ? chunk : [chunk]) {
        seen.push(row.id);
        releaseRecord(row);
      }
    },
  });
  return markLending(sink, RELEASES);
}

const passThrough = (): TransformStream<Row, Row> => new TransformStream<Row, Row>();

describe('chainWritable and buffer lending', () => {
  it('lends through chainWritable when its stages pass releases on and its sink releases', async () => {
    const marked = (): TransformStream<Row, Row> => markLending(passThrough(), PASSES_RELEASE);
    expect(RELEASES in chainWritable([marked(), marked()], releasingSink())).toBe(true);
    expect(RELEASES in chainWritable([marked(), passThrough()], releasingSink())).toBe(false);
    expect(RELEASES in chainWritable([marked()], new WritableStream())).toBe(false);

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

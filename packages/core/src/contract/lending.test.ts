import { describe, expect, it } from 'vitest';
import { fromArray } from '../testing/index.js';
import { batch, unbatch } from '../stages/batch.js';
import { definePipeline } from '../stages/define-pipeline.js';
import { pipeline, run } from '../stages/pipeline.js';
import {
  lendIfSafe,
  lendingSwitch,
  markLending,
  passRelease,
  PASSES_RELEASE,
  RELEASE,
  releaseRecord,
  RELEASES,
  withRelease,
} from './lending.js';

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

describe('buffer lending', () => {
  it('attaches a release hook out of sight of keys, JSON and spreads, and calls it on release', () => {
    const calls: string[] = [];
    const row = withRelease({ a: 1 }, () => calls.push('released'));
    expect(Object.keys(row)).toEqual(['a']);
    expect(JSON.stringify(row)).toBe('{"a":1}');
    expect(RELEASE in { ...row }).toBe(false);
    releaseRecord(row);
    expect(calls).toEqual(['released']);
    // No hook, or not an object: nothing to do.
    expect(() => releaseRecord({ a: 1 })).not.toThrow();
    expect(() => releaseRecord(null)).not.toThrow();
    expect(() => releaseRecord(7)).not.toThrow();
  });

  it('hands a record’s hook to the record made from it, and nothing when it has none', () => {
    const calls: number[] = [];
    const made = passRelease(
      withRelease({ a: 1 }, () => calls.push(1)),
      { b: 2 },
    );
    releaseRecord(made);
    expect(calls).toEqual([1]);
    expect(RELEASE in passRelease({ a: 1 }, { b: 2 })).toBe(false);
    expect(RELEASE in passRelease(undefined, { b: 2 })).toBe(false);
  });

  it('switches lending on only when the source lends, every stage passes releases and the sink releases', () => {
    const marked = (): TransformStream<Row, Row> => markLending(passThrough(), PASSES_RELEASE);
    const cases: [string, boolean, () => boolean][] = [
      ['all marked', true, () => lendIfSafe(lendingSource(1).stream, [marked(), marked()], releasingSink())],
      ['no stages', true, () => lendIfSafe(lendingSource(1).stream, [], releasingSink())],
      [
        'one stage unmarked',
        false,
        () => lendIfSafe(lendingSource(1).stream, [marked(), passThrough()], releasingSink()),
      ],
      ['sink unmarked', false, () => lendIfSafe(lendingSource(1).stream, [marked()], new WritableStream())],
      ['source without switch', false, () => lendIfSafe(fromArray([{ id: 0 }]), [marked()], releasingSink())],
    ];
    for (const [name, expected, check] of cases) expect([name, check()]).toEqual([name, expected]);
  });

  it('is switched on by pipeline(), run() and definePipeline(), and every record is released once', async () => {
    for (const start of [
      (source: ReadableStream<Row>, sink: WritableStream<Row | Row[]>) =>
        pipeline(source, batch<Row>(3), unbatch<Row>(), sink).run(),
      (source: ReadableStream<Row>, sink: WritableStream<Row | Row[]>) => run(source, batch<Row>(4), sink),
      (source: ReadableStream<Row>, sink: WritableStream<Row | Row[]>) =>
        definePipeline({ source, stages: [batch<Row>(2)], sink }).run(),
    ]) {
      const { stream, released, switched } = lendingSource(10);
      const seen: number[] = [];
      await start(stream, releasingSink(seen));
      expect(switched()).toBe(true);
      expect(seen).toEqual([...Array(10).keys()]);
      expect(released).toEqual([...Array(10).keys()]);
    }
  });

  it('stays off when a stage of yours sits in the run: its records are yours to keep', async () => {
    const { stream, released, switched } = lendingSource(5);
    const seen: number[] = [];
    await pipeline(stream, passThrough(), releasingSink(seen)).run();
    expect(switched()).toBe(false);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(released).toEqual([]);
  });
});

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskClaims, workLane } from './work-lane.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-claims-test-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** A promise and its resolve function. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** Lets every pending promise callback run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('TaskClaims', () => {
  it('hands every task to exactly one of two claimers sharing a directory, in order', async () => {
    const shared = await mkdtemp(join(directory, 'two-'));
    const [first, second] = [new TaskClaims(shared, 7), new TaskClaims(shared, 7)];
    const taken: [string, number | undefined][] = [];
    for (const [name, claims] of [
      ['a', first],
      ['a', first],
      ['b', second],
      ['a', first],
      ['b', second],
      ['b', second],
    ] as const)
      taken.push([name, claims.take()]);
    expect(taken).toEqual([
      ['a', 0],
      ['a', 1],
      ['b', 2],
      ['a', 3],
      ['b', 4],
      ['b', 5],
    ]);
    // After a failure one takes every task left: the other gets none.
    first.takeAll();
    expect(second.take()).toBeUndefined();
    expect(first.take()).toBeUndefined();
    expect((await readdir(shared)).sort()).toEqual(['0', '1', '2', '3', '4', '5', '6']);
  });

  it('hands out 0 … count - 1 alone without a directory, and fails on a directory that is gone', () => {
    const alone = new TaskClaims(undefined, 3);
    expect([alone.take(), alone.take(), alone.take(), alone.take()]).toEqual([0, 1, 2, undefined]);
    expect(() => new TaskClaims(join(directory, 'missing'), 2).take()).toThrow(/ENOENT/);
  });
});

describe('workLane', () => {
  it('starts the next task once the current one has read its input, never more than two at once', async () => {
    const events: string[] = [];
    const gates = Array.from({ length: 4 }, deferred);
    let running = 0;
    let most = 0;
    const lane = workLane(new TaskClaims(undefined, 4), async (id, inputRead) => {
      running++;
      most = Math.max(most, running);
      events.push(`start ${id}`);
      inputRead();
      await gates[id]!.promise;
      events.push(`end ${id}`);
      running--;
    });
    await settle();
    // Task 1 started while task 0 is still committing; task 2 waits for task 0 to end.
    expect(events).toEqual(['start 0', 'start 1']);
    gates[0]!.resolve();
    await settle();
    expect(events).toEqual(['start 0', 'start 1', 'end 0', 'start 2']);
    gates[2]!.resolve();
    await settle();
    // Task 1 has not ended: task 3 waits for it, though task 2 is done.
    expect(events).toEqual(['start 0', 'start 1', 'end 0', 'start 2', 'end 2']);
    gates[1]!.resolve();
    gates[3]!.resolve();
    await lane;
    expect(events.slice(5)).toEqual(['end 1', 'start 3', 'end 3']);
    expect(most).toBe(2);
  });

  it('runs a task that never says its input is read alone', async () => {
    const events: string[] = [];
    await workLane(new TaskClaims(undefined, 3), async (id) => {
      events.push(`start ${id}`);
      await settle();
      events.push(`end ${id}`);
    });
    expect(events).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('aborts the other task after a failure, takes no more, and throws once both ended', async () => {
    const events: string[] = [];
    const failing = deferred();
    const lane = workLane(new TaskClaims(undefined, 5), async (id, inputRead, signal) => {
      events.push(`start ${id}`);
      inputRead();
      if (id === 0) {
        await failing.promise;
        throw new Error('commit of 0 failed');
      }
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      events.push(`aborted ${id}: ${(signal.reason as Error).message}`);
    });
    await settle();
    failing.resolve();
    await expect(lane).rejects.toThrow('commit of 0 failed');
    expect(events).toEqual(['start 0', 'start 1', 'aborted 1: commit of 0 failed']);
  });

  it('stops taking tasks once told to', async () => {
    let stop = false;
    const done: number[] = [];
    await workLane(
      new TaskClaims(undefined, 5),
      async (id) => {
        await settle();
        done.push(id);
        stop = id === 1;
      },
      () => stop,
    );
    expect(done).toEqual([0, 1]);
  });
});

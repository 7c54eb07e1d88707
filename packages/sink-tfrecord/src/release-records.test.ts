import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bytes, example, int64, type Example } from '@tfpipe/core';
import { SINK_RELEASES, withRelease } from '@tfpipe/core/internal';
import { describe, expect, it } from 'vitest';
import { random, tempDir, writeAll } from './__fixtures__/helpers.js';
import { tfrecordSink } from './tfrecord-sink.js';

/** Image-like payload sizes: small, around the 4 KiB and 256 KiB paths, and past a 1 MiB buffer. */
const SIZES = [10, 4_000, 110_000, 300_000, 1_500_000, 70];

function imageBytes(size: number, seed: number): Uint8Array {
  const next = random(seed);
  return Uint8Array.from({ length: size }, () => Math.floor(next() * 256));
}

/** Examples with fresh bytes, and the same ones lent: each release scribbles over its bytes, as a reuse would. */
function lentAndPlain(): { plain: Example[]; lent: Example[]; released: number[] } {
  const released: number[] = [];
  const plain: Example[] = [];
  const lent: Example[] = [];
  SIZES.forEach((size, index) => {
    const data = imageBytes(size, index + 1);
    plain.push(example({ 'image/encoded': bytes(data.slice()), 'image/class/label': int64(index) }));
    const mine = example({ 'image/encoded': bytes(data), 'image/class/label': int64(index) });
    lent.push(
      withRelease(mine, () => {
        released.push(index);
        data.fill(0xee);
      }),
    );
  });
  return { plain, lent, released };
}

describe('tfrecordSink releases lent records', () => {
  it('is marked as a sink that releases', () => {
    expect((tfrecordSink({ path: '/dev/null' }) as { [SINK_RELEASES]?: boolean })[SINK_RELEASES]).toBe(true);
  });

  it('releases each record once, only after its bytes are copied or written: one by one and in batches', async () => {
    const directory = await tempDir();
    for (const bufferBytes of [4 * 1024 * 1024, 1024 * 1024, 64 * 1024]) {
      const { plain, lent, released } = lentAndPlain();
      const expected = join(directory, `plain-${bufferBytes}.tfrecord`);
      await writeAll(tfrecordSink({ path: expected, bufferBytes }), plain);
      const single = join(directory, `lent-${bufferBytes}.tfrecord`);
      await writeAll(tfrecordSink({ path: single, bufferBytes }), lent);
      expect(released.sort((a, b) => a - b)).toEqual(SIZES.map((_, index) => index));
      expect((await readFile(single)).equals(await readFile(expected))).toBe(true);

      const batched = lentAndPlain();
      const inBatches = join(directory, `batched-${bufferBytes}.tfrecord`);
      await writeAll(tfrecordSink({ path: inBatches, bufferBytes }), [
        batched.lent.slice(0, 3),
        batched.lent.slice(3),
      ] as never[]);
      expect(batched.released.sort((a, b) => a - b)).toEqual(SIZES.map((_, index) => index));
      expect((await readFile(inBatches)).equals(await readFile(expected))).toBe(true);
    }
  });

  it('releases a record it skips under onError: skip', async () => {
    const directory = await tempDir();
    const released: string[] = [];
    const bad = withRelease(example({ 'image/encoded': { kind: 'int64', value: ['x'] } as never }), () =>
      released.push('bad'),
    );
    const good = withRelease(example({ 'image/encoded': bytes('ok') }), () => released.push('good'));
    const sink = tfrecordSink({ path: join(directory, 's.tfrecord'), onError: 'skip' });
    await writeAll(sink, [bad, good]);
    expect(released).toEqual(['bad', 'good']);
  });
});

import { rm } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectAll, eachTemporaryDirectory, photo, put, value } from './__fixtures__/make-images.js';
import { imageListing, imageSource } from './image-source.js';

let dir: string;
eachTemporaryDirectory((made) => (dir = made));

type Row = Record<string, unknown>;

async function sixImages(): Promise<void> {
  for (const [index, name] of ['a/1.png', 'a/2.png', 'b/1.jpg', 'b/2.jpg', 'b/3.png', 'c/1.png'].entries()) {
    await put(dir, name, await photo(8, 6, index));
  }
}

const filenames = (rows: readonly Row[]): unknown[] => rows.map((row) => value(row['image/filename']));

describe('ranges and listing digests (what plans read)', () => {
  it('reads the ranges in the order given, with the whole input’s label ids, record indexes and label map', async () => {
    await sixImages();
    const listing = await imageListing({ folder: dir });
    expect(listing.images).toBe(6);
    expect(listing.labelMap).toEqual([
      { id: 0, name: 'a' },
      { id: 1, name: 'b' },
      { id: 2, name: 'c' },
    ]);
    expect(listing.sha256).toMatch(/^[0-9a-f]{64}$/);
    const whole = (await collectAll(imageSource({ folder: dir }))) as Row[];
    const ranged = (await collectAll(
      imageSource({
        folder: dir,
        listingSha256: listing.sha256,
        ranges: [
          [4, 6],
          [0, 1],
          [2, 2],
        ],
      }),
    )) as Row[];
    expect(filenames(ranged)).toEqual(['b/3.png', 'c/1.png', 'a/1.png']);
    expect(ranged).toEqual([whole[4], whole[5], whole[0]]);
    // A broken image in a range is reported at its place in the whole input.
    await put(dir, 'b/3.png', '');
    const error = await collectAll(imageSource({ folder: dir, ranges: [[3, 6]] })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({
      code: 'IMAGE_DECODE',
      position: { file: path.join(dir, 'b/3.png'), recordIndex: 4 },
    });
  });

  it('refuses a listing that changed (an image added or removed) and a range beyond the input', async () => {
    await sixImages();
    const { sha256 } = await imageListing({ folder: dir });
    expect(await imageListing({ folder: dir, ranges: [[0, 1]], listingSha256: sha256 })).toMatchObject({
      sha256,
    });
    await rm(path.join(dir, 'c/1.png'));
    for (const options of [{ listingSha256: sha256 }, { ranges: [[3, 6]] as [number, number][] }]) {
      const error = await collectAll(imageSource({ folder: dir, ...options })).catch(
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ code: 'INPUT_CHANGED', fatal: true, position: { file: dir } });
    }
    await put(dir, 'c/1.png', await photo(8, 6, 99));
    // Same names, other content: the listing (names, labels, annotations) is unchanged.
    expect((await imageListing({ folder: dir })).sha256).toBe(sha256);
  });

  it('refuses malformed ranges and digests when called', () => {
    for (const ranges of [[[2, 1]], [[-1, 2]], [[0.5, 2]], [[1]], 'all'] as never[]) {
      expect(() => imageSource({ folder: dir, ranges })).toThrow(
        /option ranges: expected a list of \[start, end\] pairs/,
      );
    }
    expect(() => imageSource({ folder: dir, listingSha256: 'ABC' })).toThrow(
      /option listingSha256: expected 64 lowercase hex digits/,
    );
  });
});

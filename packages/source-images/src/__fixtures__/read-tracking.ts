// Test helper: readImageFile wrapped (with vi.mock) to follow what happens to each file's buffer.
import type * as ReadImageFile from '../processing/read-image-file.js';

/** One file read through readImageFile. */
export interface TrackedRead {
  /** Whether its buffer has been given back (`ImageFile.giveBack`). */
  givenBack: boolean;
}

/** Every file read since the last {@link resetReads}; files held (read, not given back), and the most held at once. */
export const reads = { list: [] as TrackedRead[], holding: 0, most: 0 };

/** Forgets the reads so far. */
export function resetReads(): void {
  Object.assign(reads, { list: [], holding: 0, most: 0 });
}

/**
 * The module with readImageFile wrapped to record each read in {@link reads}:
 * `vi.mock('./processing/read-image-file.js', async (original) => (await import('./__fixtures__/read-tracking.js')).tracking(await original()))`.
 */
export function tracking(original: typeof ReadImageFile): typeof ReadImageFile {
  return {
    ...original,
    readImageFile: async (...args: Parameters<typeof original.readImageFile>) => {
      const file = await original.readImageFile(...args);
      const read: TrackedRead = { givenBack: false };
      reads.list.push(read);
      reads.most = Math.max(reads.most, ++reads.holding);
      const { giveBack } = file;
      return {
        ...file,
        giveBack: () => {
          if (!read.givenBack) reads.holding--;
          read.givenBack = true;
          giveBack?.();
        },
      };
    },
  };
}

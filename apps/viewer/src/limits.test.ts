// The side files a shard folder may hold are read whole, so each has a size bound checked before any
// of it is read: a manifest or an `.idx` of 64 MiB and one byte is refused with its name and size.
import { describe, expect, it } from 'vitest';
import { MAX_INDEX_FILE_BYTES, readIndexFile } from './index-check.js';
import { MAX_MANIFEST_BYTES, readManifest } from './shard-files.js';
import type { FileSource } from './worker-protocol.js';

/** A picked file of `size` bytes, every byte `fill` (a Blob's bytes, as the page gets them). */
function picked(name: string, size: number, fill: string): FileSource {
  return { kind: 'file', file: new File([new Uint8Array(size).fill(fill.charCodeAt(0))], name) };
}

describe('side files past their bound are refused, naming the file', () => {
  it('an .idx of 64 MiB + 1 byte', async () => {
    expect(MAX_INDEX_FILE_BYTES).toBe(64 * 1024 * 1024);
    await expect(readIndexFile(picked('a.tfrecord.idx', MAX_INDEX_FILE_BYTES + 1, '0'))).rejects.toThrow(
      `a.tfrecord.idx: ${MAX_INDEX_FILE_BYTES + 1} bytes, more than the ${MAX_INDEX_FILE_BYTES} an index file may have`,
    );
  });

  it('a manifest of 64 MiB + 1 byte', async () => {
    expect(MAX_MANIFEST_BYTES).toBe(64 * 1024 * 1024);
    await expect(readManifest(picked('manifest.json', MAX_MANIFEST_BYTES + 1, ' '))).rejects.toThrow(
      `manifest.json: ${MAX_MANIFEST_BYTES + 1} bytes, more than the ${MAX_MANIFEST_BYTES} a manifest may have`,
    );
  });

  it('within the bound, an .idx is read and a bad line named', async () => {
    const good: FileSource = { kind: 'file', file: new File(['0 46\n46 46\n'], 'b.idx') };
    expect(await readIndexFile(good)).toEqual([
      { offset: 0, size: 46 },
      { offset: 46, size: 46 },
    ]);
    const bad: FileSource = { kind: 'file', file: new File(['0 46\nx 46\n'], 'c.idx') };
    await expect(readIndexFile(bad)).rejects.toThrow('c.idx, line 2: not "<offset> <size>"');
  });
});

import { open, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import { rejectionOf } from '@tfpipe/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { framedFile, tempDir, writeAll } from './__fixtures__/helpers.js';
import { WRITEBACK_BYTES } from './shard-file.js';
import { tfrecordSink } from './tfrecord-sink.js';

const PAYLOAD_BYTES = 64 * 1024;
/** Enough 64 KiB records for two and a half writeback steps. */
const COUNT = Math.ceil((2.5 * WRITEBACK_BYTES) / PAYLOAD_BYTES);

/** Distinct payloads (the record index in the first bytes), so a reordered record shows. */
function payloads(): Uint8Array[] {
  return Array.from({ length: COUNT }, (_, index) => {
    const payload = new Uint8Array(PAYLOAD_BYTES).fill(index % 251);
    new DataView(payload.buffer).setUint32(0, index);
    return payload;
  });
}

/** `FileHandle.prototype.datasync`, spied on: Node does not export the class itself. */
async function spyOnDatasync(directory: string) {
  const probe = await open(join(directory, 'probe'), 'w');
  const prototype = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
  await probe.close();
  return vi.spyOn(prototype, 'datasync');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('background syncs of a large synced file', () => {
  it('sync it while it is written, and the file reads back whole', async () => {
    const directory = await tempDir();
    const datasync = await spyOnDatasync(directory);
    const path = join(directory, 'out.tfrecord');
    const written = payloads();
    await writeAll(tfrecordSink({ path }), written);
    // Two background syncs (after 32 and 64 MiB) and the final one.
    expect(datasync.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(Buffer.compare(await readFile(path), framedFile(written))).toBe(0);
  });

  it('do not run when the file is not synced', async () => {
    const directory = await tempDir();
    const datasync = await spyOnDatasync(directory);
    await writeAll(tfrecordSink({ path: join(directory, 'out.tfrecord'), fsync: false }), payloads());
    expect(datasync).not.toHaveBeenCalled();
  });

  it('fail the run when one fails, leaving nothing under the final name', async () => {
    const directory = await tempDir();
    const datasync = await spyOnDatasync(directory);
    const failure = Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO', errno: -5 });
    datasync.mockRejectedValueOnce(failure);
    const error = await rejectionOf(
      writeAll(tfrecordSink({ path: join(directory, 'out.tfrecord') }), payloads()),
    );
    expect(TfpipeError.is(error) ? error.cause : error).toBe(failure);
    expect(await readdir(directory)).toEqual(['probe']);
  });
});

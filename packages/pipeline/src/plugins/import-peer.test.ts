import { TfpipeError } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { importPeer } from './import-peer.js';

/** The error Node's `import()` rejects with when a package is not installed. */
function notFound(name: string): Error {
  return Object.assign(new Error(`Cannot find package '${name}' imported from /app/dist/index.js`), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
}

describe('importPeer', () => {
  it('turns a missing peer into UNKNOWN_PLUGIN naming the package and what needs it', async () => {
    const error = await importPeer(
      '@tfpipe/sink-tfrecord',
      () => Promise.reject(notFound('@tfpipe/sink-tfrecord')),
      'the full shuffle (shuffle.full)',
    ).catch((caught: unknown) => caught);
    expect(TfpipeError.is(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'UNKNOWN_PLUGIN',
      message: expect.stringContaining(
        'the full shuffle (shuffle.full) needs @tfpipe/sink-tfrecord, which is not installed: install it beside @tfpipe/pipeline: npm install @tfpipe/sink-tfrecord',
      ),
    });
  });

  it("passes on a missing dependency of the peer itself, and the peer's own errors, as they are", async () => {
    const sharp = notFound('sharp');
    await expect(importPeer('@tfpipe/source-images', () => Promise.reject(sharp), 'x')).rejects.toBe(sharp);
    const broken = new TypeError('boom');
    await expect(importPeer('@tfpipe/source-csv', () => Promise.reject(broken), 'x')).rejects.toBe(broken);
  });
});

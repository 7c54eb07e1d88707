// The web entry's decodeImage where there is no createImageBitmap (Node, the edge runtime): one clear
// error pointing to the Node entry, and options checked before anything is decoded.
import type { TfpipeError } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { decodeImage, decodeImages } from './decode-image-web.js';

describe('decodeImage from the web entry without a browser', () => {
  it.skipIf(typeof createImageBitmap === 'function')('says to use @tfpipe/dataset/node', async () => {
    const error = (await decodeImage(Uint8Array.of(0x89, 0x50)).catch(
      (caught: unknown) => caught,
    )) as TfpipeError;
    expect(error.code).toBe('IMAGE_UNSUPPORTED');
    expect(error.message).toContain('in Node.js import it from @tfpipe/dataset/node');
  });

  it('checks the options first', async () => {
    const error = (await decodeImage(new Uint8Array(1), { channels: 0 as never }).catch(
      (caught: unknown) => caught,
    )) as TfpipeError;
    expect(error.code).toBe('INVALID_OPTION');
    expect(() => decodeImages('image', { resize: { height: 1, width: 1, fit: 'stretch' as never } })).toThrow(
      'resize.fit must be one of fill, cover, contain, got "stretch"',
    );
  });
});

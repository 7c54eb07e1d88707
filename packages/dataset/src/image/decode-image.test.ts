// The web entry's decodeImage where there is no createImageBitmap (Node, the edge runtime): one clear
// error pointing to the Node entry, and options checked before anything is decoded.
import type { TfpipeError } from '@tfpipe/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { DenseTensor } from '../tensor.js';
import type { ImageTensor } from './decode-image.js';
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

  it.skipIf(typeof Worker === 'function')('refuses image workers where there is no Worker', () => {
    expect(() => decodeImages('image', { workers: 2 })).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTION',
        message: expect.stringContaining('decodes on module Web Workers, and there is no Worker here'),
      }),
    );
  });
});

describe('the types of decodeImage and decodeImages', () => {
  it('follow the dtype option', () => {
    // Checked by the compiler only: never called (there is no decoder here).
    const _calls = () =>
      [decodeImage(new Uint8Array(0)), decodeImage([new Uint8Array(0)], { dtype: 'float32' })] as const;
    expectTypeOf<Awaited<ReturnType<typeof _calls>[0]>>().toEqualTypeOf<ImageTensor<'uint8'>>();
    expectTypeOf<Awaited<ReturnType<typeof _calls>[1]>>().toEqualTypeOf<ImageTensor<'float32'>>();
    const _step = decodeImages('image', { dtype: 'float32' });
    type Batch = { readonly image: DenseTensor<'string'>; readonly label: DenseTensor<'int64'> };
    type Out = Awaited<ReturnType<typeof _step<Batch>>>;
    expectTypeOf<Out['image']['data']>().toEqualTypeOf<Float32Array>();
    expectTypeOf<Out['label']['data']>().toEqualTypeOf<BigInt64Array>();
  });
});

import { TfpipeError } from '@tfpipe/core';
import { attachPositions, batchPosition } from '../batch-positions.js';
import type { DenseTensor } from '../tensor.js';
import { batchImagePosition, decodeBatch, decoderFor } from './decode-image.js';
import type { ImageTensor, PixelDecoder, WorkerPixelDecoder } from './decode-image.js';
import { checkImageOptions } from './image-options.js';
import type { DecodeImageOptions, ImageDtype } from './image-options.js';

/** Options of `decodeImages`: `decodeImage`'s, the feature and origin coming from the batch. */
export type DecodeImagesOptions<D extends ImageDtype = ImageDtype> = Omit<
  DecodeImageOptions<D>,
  'feature' | 'origin'
>;

/** A parsed batch with its encoded-image feature `F` replaced by the decoded `[batch, h, w, c]` images. */
export type WithImages<B, F extends keyof B, D extends ImageDtype> = {
  readonly [K in keyof B]: K extends F ? ImageTensor<D> : B[K];
};

/** `decodeImages(feature, options)`: a `.map` step that decodes one feature of each parsed batch. */
export interface DecodeImages {
  <F extends string, D extends ImageDtype = 'uint8'>(
    feature: F,
    options?: DecodeImagesOptions<D>,
  ): <B extends { readonly [K in F]: DenseTensor<'string'> }>(batch: B) => Promise<WithImages<B, F, D>>;
}

/** The `decodeImages` of an entry, decoding with `base` (or `onWorkers`, for the option `workers`). */
export function imagesStep(base: PixelDecoder, onWorkers?: WorkerPixelDecoder): DecodeImages {
  return ((feature: string, options?: DecodeImagesOptions) => {
    if (typeof feature !== 'string')
      throw new TfpipeError('INVALID_OPTION', `decodeImages needs a feature name, got ${String(feature)}`, {
        stage: 'decodeImages',
        fatal: true,
      });
    const settings = checkImageOptions(options);
    const decode = decoderFor(base, onWorkers, settings);
    return async (batch: Record<string, unknown>) => {
      const tensor = batch?.[feature] as DenseTensor | undefined;
      if (tensor?.kind !== 'dense' || tensor.dtype !== 'string' || tensor.shape.length !== 1)
        throw new TfpipeError(
          'INVALID_OPTION',
          `decodeImages: feature ${feature} must be parsed as fixedLen([], 'string') (one encoded image per record)`,
          { stage: 'decodeImages', fatal: true, position: { field: feature } },
        );
      const images = await decodeBatch(
        decode,
        tensor.data as Uint8Array[],
        settings,
        batchImagePosition(batch, {}),
        feature,
      );
      const out = Object.create(null) as Record<string, unknown>;
      for (const name of Object.keys(batch)) out[name] = name === feature ? images : batch[name];
      attachPositions(out, (index) => batchPosition(batch, index) ?? { recordIndex: index });
      return out;
    };
  }) as DecodeImages;
}

import { TfpipeError } from '@tfpipe/core';
import type { DecodedPixels, PixelDecoder } from '../image/decode-image.js';
import type { ImageSettings } from '../image/image-options.js';
import { errorFromWorker, WorkerPool } from './parse-workers.js';
import type { WorkerError } from './parse-workers.js';
import { stoppedMessage, WebThreadWorker } from './web-workers.js';

/** One image as an image worker receives it. Internal. */
export interface ImageRequest {
  readonly bytes: Uint8Array;
  readonly settings: ImageSettings;
}

/** An image worker's answer: the pixels, or the error. Internal. */
export type ImageReply =
  | (DecodedPixels & { readonly id: number; readonly error?: undefined })
  | { readonly id: number; readonly error: WorkerError };

const ROLE = 'image worker';
const pools = new Map<number, WorkerPool>();

function pool(count: number): WorkerPool {
  let found = pools.get(count);
  if (found === undefined) {
    found = new WorkerPool(
      count,
      () =>
        new WebThreadWorker(
          // The pattern bundlers recognise (see web-workers.ts): the worker module beside this one.
          () =>
            new Worker(new URL('./image-worker-web.js', import.meta.url), {
              type: 'module',
              name: 'tfpipe images',
            }),
          {},
          ROLE,
        ),
      () => stoppedMessage(ROLE),
    );
    pools.set(count, found);
  }
  return found;
}

function workerFailed(error: unknown): TfpipeError {
  return new TfpipeError('INTERNAL', 'an image worker failed', {
    stage: 'decodeImage',
    reason: error instanceof Error ? error.message : String(error),
    cause: error,
  });
}

/**
 * A pixel decoder that decodes each image on one of `count` module Web Workers (the same decoder as
 * on the page: `createImageBitmap` and an `OffscreenCanvas`), each image going to the worker with the
 * fewest waiting. A worker that dies (or does not load) fails its images with `INTERNAL`.
 * @throws TfpipeError `INVALID_OPTION` where there is no `Worker`
 */
export function webImageWorkers(count: number): PixelDecoder {
  if (typeof Worker !== 'function')
    throw new TfpipeError(
      'INVALID_OPTION',
      'workers > 1 decodes on module Web Workers, and there is no Worker here (in Node, sharp already decodes on its own threads)',
      { stage: 'decodeImage', fatal: true },
    );
  const workers = pool(count);
  return async (bytes, settings) => {
    // A copy moves to the worker: the batch's bytes may be views of a shared block, and stay the caller's.
    const copy = bytes.slice();
    let reply: ImageReply;
    try {
      reply = await workers.thread().request<ImageReply>({ bytes: copy, settings }, [copy.buffer]);
    } catch (error) {
      throw workerFailed(error);
    }
    if (reply.error !== undefined) throw errorFromWorker(reply.error);
    return { data: reply.data, height: reply.height, width: reply.width };
  };
}

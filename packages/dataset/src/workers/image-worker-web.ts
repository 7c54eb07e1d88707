// An image Web Worker (a module worker started by web-image-workers.ts): decodes (and resizes) each
// image it is sent with createImageBitmap and an OffscreenCanvas, and answers with its pixels.
import { webPixels } from '../image/web-pixels.js';
import { toWorkerError } from './parse-workers.js';
import type { ImageReply, ImageRequest } from './web-image-workers.js';
import { serveWebWorker } from './worker-scope.js';

serveWebWorker(() => async (message) => {
  const { id, bytes, settings } = message as ImageRequest & { id: number };
  try {
    const { data, height, width } = await webPixels(bytes, settings);
    const reply: ImageReply = { id, data, height, width };
    return { reply, transfer: [data.buffer] };
  } catch (error) {
    const reply: ImageReply = { id, error: toWorkerError(error) };
    return { reply, transfer: [] };
  }
});

/**
 * Grey from colour pixels of `stride` bytes (RGB or RGBA): ITU-R BT.601 luma, `0.299 R + 0.587 G +
 * 0.114 B` rounded, what `tf.image.rgb_to_grayscale` and libjpeg's grey output compute. Node and
 * browsers both use this, so `channels: 1` gives the same bytes from the same RGB.
 */
export function lumaOf(pixels: Uint8Array | Uint8ClampedArray, stride: 3 | 4): Uint8Array {
  const count = pixels.length / stride;
  const out = new Uint8Array(count);
  for (let pixel = 0, at = 0; pixel < count; pixel++, at += stride)
    out[pixel] = Math.round(0.299 * pixels[at]! + 0.587 * pixels[at + 1]! + 0.114 * pixels[at + 2]!);
  return out;
}

import { readImageHeader, type ImageFormat } from '@tfpipe/source-images/header';

/** Width and height of an image in pixels. */
export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

const FORMATS: Readonly<Record<string, ImageFormat>> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/**
 * The size an image's header states, read without decoding it: JPEG, PNG, WebP and GIF with
 * `@tfpipe/source-images`' header reader (what `tfpipe convert` trusts), BMP from its info header;
 * `undefined` when the header is cut short or not understood.
 */
export function imageSize(bytes: Uint8Array, type: string): ImageSize | undefined {
  const format = FORMATS[type];
  if (format !== undefined) {
    const header = readImageHeader(format, bytes);
    return header === undefined ? undefined : { width: header.width, height: header.height };
  }
  if (type !== 'image/bmp' || bytes.length < 26) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // BITMAPINFOHEADER: a negative height is a top-down bitmap.
  return { width: Math.abs(view.getInt32(18, true)), height: Math.abs(view.getInt32(22, true)) };
}

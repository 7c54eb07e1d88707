import { sniffImageFormat, type SniffedFormat } from '@tfpipe/source-images/header';

/** The formats a browser draws on a canvas, and their MIME types. */
const BROWSER_TYPES: Partial<Record<SniffedFormat, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  bmp: 'image/bmp',
};
/** The smallest BMP: its 14-byte file header and the width and height of its info header, in bytes. */
const MIN_BMP_BYTES = 26;

/**
 * The MIME type of image bytes the browser can show (JPEG, PNG, WebP, GIF, BMP), from their magic
 * bytes (`sniffImageFormat` of `@tfpipe/source-images/header`); a text value starting with `BM` that
 * is too short to hold a BMP header is no image.
 */
export function imageType(bytes: Uint8Array): string | undefined {
  const format = sniffImageFormat(bytes);
  if (format === undefined || (format === 'bmp' && bytes.length < MIN_BMP_BYTES)) return undefined;
  return BROWSER_TYPES[format];
}

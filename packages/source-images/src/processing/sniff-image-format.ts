/** The encodings this package writes as `image/format`, plus `'raw'` for decoded pixels. */
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif';

/** What the first bytes of a file say it is. `undefined`: not an image format we know. */
export type SniffedFormat = ImageFormat | 'bmp' | 'tiff' | 'avif' | 'heif' | 'svg';

/**
 * The image format from the content's magic bytes, never from the file extension: a PNG saved as
 * `cat.jpg` is a PNG, and a text file saved as `cat.jpg` is no image.
 */
export function sniffImageFormat(data: Uint8Array): SniffedFormat | undefined {
  const at = (index: number): number => data[index] ?? -1;
  const ascii = (start: number, text: string): boolean =>
    [...text].every((character, index) => at(start + index) === character.charCodeAt(0));
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'jpeg';
  if (at(0) === 0x89 && ascii(1, 'PNG\r\n\x1a\n')) return 'png';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'webp';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'gif';
  if (ascii(0, 'BM')) return 'bmp';
  if (ascii(0, 'II*\0') || ascii(0, 'MM\0*')) return 'tiff';
  if (ascii(4, 'ftyp')) return ascii(8, 'avif') || ascii(8, 'avis') ? 'avif' : 'heif';
  if (ascii(0, '<svg') || ascii(0, '<?xml')) return 'svg';
  return undefined;
}

/**
 * Why the file cannot be complete, or `undefined` when its structure ends where it should. A cheap
 * check (no decode) that catches the commonest corruption, a truncated download or copy: a JPEG must
 * end with its EOI marker (FFD9, possibly followed by padding), a PNG with its IEND chunk, a WebP's
 * RIFF size must match the file and a GIF must end with its trailer byte (0x3B).
 */
export function truncationReason(format: ImageFormat, data: Uint8Array): string | undefined {
  const length = data.length;
  switch (format) {
    case 'jpeg': {
      // Cameras and editors sometimes pad after EOI; look for it in the last few hundred bytes.
      const floor = Math.max(2, length - 512);
      for (let index = length - 2; index >= floor; index--) {
        if (data[index] === 0xff && data[index + 1] === 0xd9) return undefined;
      }
      return 'JPEG end-of-image marker (FFD9) missing: the file is truncated';
    }
    case 'png': {
      const tail = [0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];
      const ok = length >= 12 && tail.every((byte, index) => data[length - 8 + index] === byte);
      return ok ? undefined : 'PNG IEND chunk missing at the end: the file is truncated';
    }
    case 'webp': {
      const declared =
        ((data[4] ?? 0) | ((data[5] ?? 0) << 8) | ((data[6] ?? 0) << 16) | ((data[7] ?? 0) << 24)) >>> 0;
      // RIFF pads odd-sized payloads to even; accept the declared size or one byte more.
      return declared + 8 <= length
        ? undefined
        : `WebP RIFF header declares ${declared + 8} bytes but the file has ${length}: the file is truncated`;
    }
    case 'gif':
      return data[length - 1] === 0x3b ? undefined : 'GIF trailer (0x3B) missing: the file is truncated';
  }
}

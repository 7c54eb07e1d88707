/** The MIME type of image bytes the browser can show (JPEG, PNG, WebP, GIF, BMP), from their magic bytes. */
export function imageType(bytes: Uint8Array): string | undefined {
  const at = (offset: number, text: string): boolean =>
    Array.from(text).every((char, index) => bytes[offset + index] === char.charCodeAt(0));
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes[0] === 0x89 && at(1, 'PNG\r\n\x1a\n')) return 'image/png';
  if (at(0, 'GIF87a') || at(0, 'GIF89a')) return 'image/gif';
  if (at(0, 'RIFF') && at(8, 'WEBP')) return 'image/webp';
  if (at(0, 'BM') && bytes.length > 26) return 'image/bmp';
  return undefined;
}

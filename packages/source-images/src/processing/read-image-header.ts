import type { ImageFormat } from './sniff-image-format.js';

/** What an image's header says, as sharp's `metadata()` would report it. */
export interface ImageHeader {
  /** Stored width, pixels (before EXIF orientation). */
  readonly width: number;
  /** Stored height, pixels (before EXIF orientation). */
  readonly height: number;
  /** Bands a decoder produces: 1 grey, 2 grey + alpha, 3 colour, 4 colour + alpha or CMYK. */
  readonly channels: number;
  /** EXIF orientation, 1 to 8 (1 when the file has none). */
  readonly orientation: number;
}

/**
 * Width, height, channels and EXIF orientation read from the first bytes of a JPEG (SOFn, APP1
 * Exif), PNG (IHDR, tRNS), WebP (VP8, VP8L, VP8X) or GIF (logical screen), without a decoder: a
 * few microseconds where sharp's `metadata()` costs a few hundred. `undefined` when the header is
 * damaged or is a case this reader leaves to sharp (animation, EXIF outside JPEG, an odd JPEG).
 */
export function readImageHeader(format: ImageFormat, data: Uint8Array): ImageHeader | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  try {
    switch (format) {
      case 'jpeg':
        return readJpeg(data, view);
      case 'png':
        return readPng(view);
      case 'webp':
        return readWebp(data, view);
      case 'gif':
        return readGif(view);
    }
  } catch (error) {
    if (error instanceof RangeError) return undefined; // the header runs past the end of the file
    throw error;
  }
}

function valid(width: number, height: number, channels: number, orientation = 1): ImageHeader | undefined {
  return width > 0 && height > 0 ? { width, height, channels, orientation } : undefined;
}

// Start-of-frame markers: C0–CF minus DHT (C4), JPG (C8) and DAC (CC).
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function readJpeg(data: Uint8Array, view: DataView): ImageHeader | undefined {
  let orientation: number | undefined = 1;
  const frame = findJpegFrame(data, view, (marker, offset, length) => {
    if (marker === 0xe1 && orientation === 1)
      orientation = exifOrientation(data.subarray(offset + 4, offset + 2 + length));
    return orientation !== undefined;
  });
  if (frame === undefined || orientation === undefined) return undefined;
  const height = view.getUint16(frame + 5); // 0 = set later by a DNL marker: left to sharp
  const width = view.getUint16(frame + 7);
  const components = view.getUint8(frame + 9);
  if (components !== 1 && components !== 3 && components !== 4) return undefined;
  return valid(width, height, components, orientation);
}

/**
 * The offset of a JPEG's frame header (its SOFn marker), walking the segments before it; each of
 * those is shown to `visit` (marker, offset of its FF, length field), which may stop the walk by
 * returning false. `undefined` when the walk stops or meets damage, a scan or the end first.
 * @throws RangeError when a segment runs past the end of the data
 */
export function findJpegFrame(
  data: Uint8Array,
  view: DataView,
  visit: (marker: number, offset: number, length: number) => boolean = () => true,
): number | undefined {
  let offset = 2;
  for (;;) {
    if (data[offset] !== 0xff) return undefined; // not at a marker: damaged, leave it to sharp
    const marker = view.getUint8(offset + 1);
    if (marker === 0xff) {
      offset++; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2; // TEM and RSTn stand alone
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return undefined; // scan or end before any frame header
    const length = view.getUint16(offset + 2);
    if (length < 2) return undefined;
    if (SOF.has(marker)) return offset;
    if (!visit(marker, offset, length)) return undefined;
    offset += 2 + length;
  }
}

const EXIF = [0x45, 0x78, 0x69, 0x66, 0, 0]; // "Exif\0\0"

/** The orientation in an APP1 payload: 1 when it is no Exif block or has none, `undefined` when odd. */
function exifOrientation(segment: Uint8Array): number | undefined {
  if (!EXIF.every((byte, index) => segment[index] === byte)) return 1; // XMP or another APP1
  const tiff = new DataView(segment.buffer, segment.byteOffset + 6, segment.byteLength - 6);
  const order = tiff.getUint16(0);
  if (order !== 0x4949 && order !== 0x4d4d) return undefined;
  const little = order === 0x4949;
  if (tiff.getUint16(2, little) !== 42) return undefined;
  const ifd = tiff.getUint32(4, little);
  const count = tiff.getUint16(ifd, little);
  for (let index = 0; index < count; index++) {
    const entry = ifd + 2 + index * 12;
    if (tiff.getUint16(entry, little) !== 0x0112) continue;
    if (tiff.getUint16(entry + 2, little) !== 3 || tiff.getUint32(entry + 4, little) !== 1) return undefined;
    const value = tiff.getUint16(entry + 8, little);
    return value >= 1 && value <= 8 ? value : undefined; // out of range: what libexif makes of it is sharp's call
  }
  return 1;
}

function readPng(view: DataView): ImageHeader | undefined {
  if (view.getUint32(12) !== 0x49484452) return undefined; // IHDR must come first
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  const colourType = view.getUint8(25);
  // Grey 0, RGB 2, palette 3, grey + alpha 4, RGBA 6; a tRNS chunk adds an alpha band to 0, 2 and 3.
  const base = { 0: 1, 2: 3, 3: 3, 4: 2, 6: 4 }[colourType];
  if (base === undefined) return undefined;
  let offset = 8;
  for (;;) {
    const length = view.getUint32(offset);
    const type = view.getUint32(offset + 4);
    if (type === 0x49444154 || type === 0x49454e44) return valid(width, height, base); // IDAT, IEND
    if (type === 0x74524e53) return valid(width, height, colourType >= 4 ? base : base + 1); // tRNS
    if (type === 0x65584966) return undefined; // eXIf: orientation read by sharp
    offset += 12 + length;
  }
}

function readWebp(data: Uint8Array, view: DataView): ImageHeader | undefined {
  const chunk = String.fromCharCode(...data.subarray(12, 16));
  const payload = 20;
  if (chunk === 'VP8 ') {
    // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height (2 scale bits above).
    if (view.getUint8(payload + 3) !== 0x9d || view.getUint8(payload + 4) !== 0x01) return undefined;
    if (view.getUint8(payload + 5) !== 0x2a) return undefined;
    const width = view.getUint16(payload + 6, true) & 0x3fff;
    const height = view.getUint16(payload + 8, true) & 0x3fff;
    return valid(width, height, 3);
  }
  if (chunk === 'VP8L') {
    if (view.getUint8(payload) !== 0x2f) return undefined;
    const bits = view.getUint32(payload + 1, true);
    const width = (bits & 0x3fff) + 1;
    const height = ((bits >>> 14) & 0x3fff) + 1;
    const alpha = (bits >>> 28) & 1;
    return valid(width, height, alpha === 1 ? 4 : 3);
  }
  if (chunk === 'VP8X') {
    const flags = view.getUint8(payload);
    // Animation (0x02) and EXIF (0x08) are left to sharp; ALPHA is 0x10.
    if ((flags & 0x0a) !== 0) return undefined;
    const width = (view.getUint32(payload + 4, true) & 0xffffff) + 1;
    const height = (view.getUint32(payload + 7, true) & 0xffffff) + 1;
    return valid(width, height, (flags & 0x10) !== 0 ? 4 : 3);
  }
  return undefined;
}

function readGif(view: DataView): ImageHeader | undefined {
  const width = view.getUint16(6, true);
  const height = view.getUint16(8, true);
  let offset = 13 + colourTableSize(view.getUint8(10));
  const skipSubBlocks = (): void => {
    for (let size = view.getUint8(offset); size !== 0; size = view.getUint8(offset)) offset += size + 1;
    offset++;
  };
  // libvips (libnsgif) gives 4 bands when any frame has a transparent colour, else 3. Frames that
  // do not fill the screen are left to sharp.
  let transparent = false;
  for (;;) {
    const block = view.getUint8(offset);
    if (block === 0x3b) return valid(width, height, transparent ? 4 : 3); // trailer
    if (block === 0x21) {
      if (view.getUint8(offset + 1) === 0xf9 && (view.getUint8(offset + 3) & 1) !== 0) transparent = true;
      offset += 2;
      skipSubBlocks();
    } else if (block === 0x2c) {
      const left = view.getUint16(offset + 1, true);
      const top = view.getUint16(offset + 3, true);
      if (left !== 0 || top !== 0 || view.getUint16(offset + 5, true) !== width) return undefined;
      if (view.getUint16(offset + 7, true) !== height) return undefined;
      offset += 10 + colourTableSize(view.getUint8(offset + 9)) + 1; // descriptor, table, LZW code size
      skipSubBlocks();
    } else {
      return undefined;
    }
  }
}

/** Bytes of the colour table a GIF screen or image descriptor's packed field announces. */
function colourTableSize(flags: number): number {
  return (flags & 0x80) !== 0 ? 3 << ((flags & 7) + 1) : 0;
}

// Real TFRecord files for the browser tests, framed and compressed the way TensorFlow writes them.
import { open } from 'node:fs/promises';
import { deflateSync, gzipSync } from 'node:zlib';
import { bytes, encodeExample, example, float, int64, type Feature } from '@tfpipe/core';
import { frameRecord } from '@tfpipe/sink-tfrecord/web';
import sharp from 'sharp';

/** A TFRecord file of `payloads`, and where each record's frame starts. */
export interface FramedFile {
  readonly bytes: Uint8Array;
  readonly offsets: readonly number[];
}

/** Frames the payloads into one uncompressed TFRecord file. */
export function tfrecordFile(payloads: readonly Uint8Array[]): FramedFile {
  const frames = payloads.map((payload) => frameRecord(payload));
  const offsets: number[] = [];
  let length = 0;
  for (const frame of frames) {
    offsets.push(length);
    length += frame.length;
  }
  const out = new Uint8Array(length);
  frames.forEach((frame, index) => out.set(frame, offsets[index]));
  return { bytes: out, offsets };
}

/** Record `index` of the tabular test file: exact int64s past 2^53, float32s, text and binary bytes. */
export function tabularRecord(index: number): Uint8Array {
  return encodeExample(
    example({
      id: int64(BigInt(index)),
      big: int64(9007199254740993n + BigInt(index)),
      score: float(0.1, index + 0.5),
      name: bytes(`row ${index}`),
      blob: bytes(new Uint8Array([0, 1, 2, 0xff])),
      many: int64(...Array.from({ length: 20 }, (_, value) => value)),
    }),
  );
}

/** `count` tabular records, uncompressed. */
export function tabularFile(count: number): FramedFile {
  return tfrecordFile(Array.from({ length: count }, (_, index) => tabularRecord(index)));
}

/** The file as TensorFlow's GZIP writes it. */
export const gzipped = (file: Uint8Array): Uint8Array => gzipSync(file);
/** The file as TensorFlow's ZLIB writes it. */
export const zlibbed = (file: Uint8Array): Uint8Array => deflateSync(file);

/** A 320×240 mid-grey JPEG. */
export async function greyJpeg(): Promise<Uint8Array> {
  const image = sharp({
    create: { width: 320, height: 240, channels: 3, background: { r: 128, g: 128, b: 128 } },
  });
  return new Uint8Array(await image.jpeg({ quality: 95 }).toBuffer());
}

/** A TF Object Detection record: the image and one box per entry of `boxes` (`[xmin, ymin, xmax, ymax]`). */
export function detectionRecord(
  image: Uint8Array,
  boxes: readonly (readonly number[])[],
  classes: readonly string[],
): Uint8Array {
  const side = (index: number): Feature => float(...boxes.map((box) => box[index]!));
  return encodeExample(
    example({
      'image/encoded': bytes(image),
      'image/format': bytes('jpeg'),
      'image/height': int64(240),
      'image/width': int64(320),
      'image/object/bbox/xmin': side(0),
      'image/object/bbox/ymin': side(1),
      'image/object/bbox/xmax': side(2),
      'image/object/bbox/ymax': side(3),
      'image/object/class/text': bytes(...classes),
      'image/object/class/label': int64(...classes.map((_, index) => index + 1)),
    }),
  );
}

/** The size of {@link writeLargeFile}'s file, in bytes: 2.25 GiB, past 2^31 (where 32-bit offsets break). */
export const LARGE_FILE_BYTES = 2.25 * 2 ** 30;
/** The block the large file repeats: 16 MiB of framed 4 KB records. */
const BLOCK_BYTES = 16 * 2 ** 20;

/** What {@link writeLargeFile} wrote: its records, the damaged one past 2^31 and the last one's offset. */
export interface LargeFile {
  readonly records: number;
  readonly damagedIndex: number;
  readonly damagedOffset: number;
  readonly lastOffset: number;
}

/**
 * Writes a {@link LARGE_FILE_BYTES} TFRecord file fast: one 16 MiB block of framed 4 KB records
 * written again and again (large writes), with one record's data damaged just past 2^31 bytes.
 */
export async function writeLargeFile(path: string): Promise<LargeFile> {
  const payloads: Uint8Array[] = [];
  let blockBytes = 0;
  for (let index = 0; ; index++) {
    const payload = encodeExample(
      example({ id: int64(index), data: bytes(new Uint8Array(4000).fill(index)) }),
    );
    if (blockBytes + payload.length + 16 > BLOCK_BYTES) break;
    payloads.push(payload);
    blockBytes += payload.length + 16;
  }
  const block = tfrecordFile(payloads);
  const blocks = Math.ceil(LARGE_FILE_BYTES / block.bytes.length);
  // The first record starting past 2^31: its block and its place in the block.
  const damagedBlock = Math.floor(2 ** 31 / block.bytes.length);
  const inBlock = block.offsets.findIndex((offset) => damagedBlock * block.bytes.length + offset > 2 ** 31);
  const damaged = block.bytes.slice();
  damaged[block.offsets[inBlock]! + 100]! ^= 0xff;
  const handle = await open(path, 'w');
  try {
    for (let index = 0; index < blocks; index++)
      await handle.write(index === damagedBlock ? damaged : block.bytes);
  } finally {
    await handle.close();
  }
  const perBlock = block.offsets.length;
  return {
    records: blocks * perBlock,
    damagedIndex: damagedBlock * perBlock + inBlock,
    damagedOffset: damagedBlock * block.bytes.length + block.offsets[inBlock]!,
    lastOffset: (blocks - 1) * block.bytes.length + block.offsets.at(-1)!,
  };
}

/** The values of record `index` of {@link exploreFile}, kept for statistics computed independently. */
export interface ExploreValues {
  readonly id: number;
  readonly label: number;
  readonly kind: string;
  readonly score: number;
  /** `undefined`: the record has no `tags` feature. */
  readonly tags: readonly string[] | undefined;
  readonly name: string;
  /** `image/encoded`: a 16×12 PNG (even records) or a 20×10 JPEG (odd records). */
  readonly image: 'png' | 'jpeg';
}

/** Values of record `index`: labels 0–2 with their class text, scores exact in float32, tags of 0–3. */
export function exploreValues(index: number): ExploreValues {
  return {
    id: index,
    label: index % 3,
    kind: ['cat', 'dog', 'bird'][index % 3]!,
    score: index * 0.25 - 3,
    tags: index % 5 === 0 ? undefined : Array.from({ length: index % 4 }, (_, at) => `t${at}`),
    name: `item ${index}`,
    image: index % 2 === 0 ? 'png' : 'jpeg',
  };
}

/** `count` records with images, labels, scores, tags and unique names, and their values. */
export async function exploreFile(
  count: number,
): Promise<FramedFile & { values: ExploreValues[]; payloads: Uint8Array[] }> {
  const png = new Uint8Array(
    await sharp({ create: { width: 16, height: 12, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer(),
  );
  const jpeg = new Uint8Array(
    await sharp({ create: { width: 20, height: 10, channels: 3, background: '#cc6633' } })
      .jpeg()
      .toBuffer(),
  );
  const values = Array.from({ length: count }, (_, index) => exploreValues(index));
  const payloads = values.map((value) =>
    encodeExample(
      example({
        id: int64(value.id),
        label: int64(value.label),
        kind: bytes(value.kind),
        score: float(value.score),
        ...(value.tags === undefined ? {} : { tags: bytes(...value.tags) }),
        name: bytes(value.name),
        'image/encoded': bytes(value.image === 'png' ? png : jpeg),
      }),
    ),
  );
  return { ...tfrecordFile(payloads), values, payloads };
}

/** A 2×2 24-bit BMP (BITMAPINFOHEADER), which no image library here writes. */
export function bmp2x2(): Uint8Array {
  const file = new Uint8Array(70);
  const view = new DataView(file.buffer);
  file.set([0x42, 0x4d]);
  view.setUint32(2, file.length, true);
  view.setUint32(10, 54, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, 2, true);
  view.setInt32(22, 2, true);
  view.setUint16(26, 1, true);
  view.setUint16(28, 24, true);
  view.setUint32(34, 16, true);
  file.fill(0x80, 54); // grey pixels; each row of 6 bytes padded to 8
  return file;
}

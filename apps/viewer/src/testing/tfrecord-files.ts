// Real TFRecord files for the browser tests, framed and compressed the way TensorFlow writes them.
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

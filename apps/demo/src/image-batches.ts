import { decodeImages, fixedLen, tfrecordDataset } from '@tfpipe/dataset/node';

/** What reading the image shards back into decoded batches gave. */
export interface ImageBatches {
  /** Each batch's image tensor shape, `[batch, height, width, channels]`. */
  readonly imageShapes: readonly (readonly number[])[];
  /** Each batch's label tensor shape, `[batch]`. */
  readonly labelShapes: readonly (readonly number[])[];
  /** Images read, by label id. */
  readonly labelCounts: Readonly<Record<string, number>>;
  /** The mean pixel value of every image read (0–255): a blank decode would be 0. */
  readonly meanPixel: number;
}

/**
 * The image shards read back the way a training loop reads them: `tfrecordDataset` →
 * `.parse(spec, { batchSize })` (the fused parse) → `decodeImages` (sharp) into
 * `[batch, height, width, 3]` uint8 tensors beside their int64 labels.
 */
export async function readImageBatches(files: readonly string[], batchSize = 32): Promise<ImageBatches> {
  const dataset = tfrecordDataset(files)
    .parse(
      { 'image/encoded': fixedLen([], 'string'), 'image/class/label': fixedLen([], 'int64') },
      { batchSize },
    )
    .map(decodeImages('image/encoded', { channels: 3 }), { parallel: 2 });
  const imageShapes: number[][] = [];
  const labelShapes: number[][] = [];
  const labelCounts: Record<string, number> = {};
  let sum = 0;
  let pixels = 0;
  for await (const batch of dataset) {
    const images = batch['image/encoded'];
    imageShapes.push([...images.shape]);
    labelShapes.push([...batch['image/class/label'].shape]);
    for (const label of batch['image/class/label'].data)
      labelCounts[String(label)] = (labelCounts[String(label)] ?? 0) + 1;
    for (const value of images.data) sum += value;
    pixels += images.data.length;
  }
  return { imageShapes, labelShapes, labelCounts, meanPixel: pixels === 0 ? 0 : sum / pixels };
}

/** `[32, 64, 64, 3] uint8 + labels [32] int64` per batch, one line each. */
export function formatImageBatches(batches: ImageBatches): string {
  const lines = batches.imageShapes.map(
    (shape, index) =>
      `  batch ${index}: images [${shape.join(', ')}] uint8, labels [${batches.labelShapes[index]!.join(', ')}] int64`,
  );
  return [
    'Image shards read back into batches (src/image-batches.ts: tfrecordDataset → parse → decodeImages)',
    ...lines,
  ].join('\n');
}

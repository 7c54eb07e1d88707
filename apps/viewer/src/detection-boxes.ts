import type { Feature, Features } from '@tfpipe/core';
import { printableUtf8 } from './feature-text.js';

/** One object box, normalized to [0, 1] of the image's width and height. */
export interface DetectionBox {
  readonly xmin: number;
  readonly ymin: number;
  readonly xmax: number;
  readonly ymax: number;
  /** The class text (`image/object/class/text`), when there is one. */
  readonly text: string | undefined;
  /** The class label (`image/object/class/label` or TFDS `objects/label`), when there is one. */
  readonly label: bigint | undefined;
}

/** The boxes of a record and what is wrong with them. */
export interface DetectionBoxes {
  readonly boxes: readonly DetectionBox[];
  /** Boxes outside [0, 1], with min > max, or lists of different lengths. */
  readonly warnings: readonly string[];
}

const OD = 'image/object/';

/** The keys boxes are drawn on (TF Object Detection, TFDS); else the first image. */
export const BOXED_IMAGE_KEYS: readonly string[] = ['image/encoded', 'image'];

/**
 * The boxes of the TF Object Detection keys (`image/object/bbox/{xmin,ymin,xmax,ymax}`,
 * `image/object/class/{text,label}`) or of TFDS (`objects/bbox` as `[ymin, xmin, ymax, xmax]` rows,
 * `objects/label`).
 */
export function detectionBoxes(features: Features): DetectionBoxes {
  const warnings: string[] = [];
  const texts = features[`${OD}class/text`];
  const labels = features[`${OD}class/label`] ?? features['objects/label'];
  let boxes: DetectionBox[] = [];
  const xmin = floats(features[`${OD}bbox/xmin`]);
  if (xmin !== undefined) {
    const [ymin, xmax, ymax] = ['ymin', 'xmax', 'ymax'].map(
      (side) => floats(features[`${OD}bbox/${side}`]) ?? [],
    );
    if (![ymin, xmax, ymax].every((list) => list?.length === xmin.length)) {
      warnings.push('the image/object/bbox/* lists have different lengths');
    }
    boxes = xmin.map((x, index) => box(x, ymin![index] ?? NaN, xmax![index] ?? NaN, ymax![index] ?? NaN));
  } else {
    const tfds = floats(features['objects/bbox']);
    if (tfds !== undefined) {
      if (tfds.length % 4 !== 0) warnings.push(`objects/bbox holds ${tfds.length} values, not rows of 4`);
      for (let start = 0; start + 3 < tfds.length; start += 4) {
        const [ymin, xmin, ymax, xmax] = tfds.slice(start, start + 4) as [number, number, number, number];
        boxes.push(box(xmin, ymin, xmax, ymax));
      }
    }
  }
  boxes = boxes.map((entry, index) => ({
    ...entry,
    text: texts?.kind === 'bytes' && texts.value[index] ? printableUtf8(texts.value[index]) : undefined,
    label: labels?.kind === 'int64' ? labels.value[index] : undefined,
  }));
  boxes.forEach((entry, index) => {
    const sides = [entry.xmin, entry.ymin, entry.xmax, entry.ymax];
    if (sides.some((side) => !(side >= 0 && side <= 1))) warnings.push(`box ${index} lies outside [0, 1]`);
    if (entry.xmin > entry.xmax || entry.ymin > entry.ymax) warnings.push(`box ${index} has min > max`);
  });
  return { boxes, warnings };
}

function box(xmin: number, ymin: number, xmax: number, ymax: number): DetectionBox {
  return { xmin, ymin, xmax, ymax, text: undefined, label: undefined };
}

function floats(feature: Feature | undefined): number[] | undefined {
  return feature?.kind === 'float' ? Array.from(feature.value) : undefined;
}

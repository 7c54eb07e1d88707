import { TfpipeError } from '@tfpipe/core';
import type { Position } from '@tfpipe/core';
import type { ImageObject } from '../inputs/image-task.js';
import {
  clampBox,
  isDegenerate,
  orientBox,
  orientationSwapsAxes,
  resizeBox,
  unorientBox,
  type NormalizedBox,
  type ResizeFit,
  type Size,
} from './box-transform.js';

/** An object with its box normalized to the output image. */
export interface PlacedObject {
  readonly object: ImageObject;
  readonly box: NormalizedBox;
  /** `area` scaled to the output image, pixels². */
  readonly area: number | undefined;
}

/** How the output image relates to the stored one. */
export interface Geometry {
  /** The stored pixel size (as the header gives it, EXIF ignored). */
  readonly stored: Size;
  /** EXIF orientation 1 to 8. */
  readonly orientation: number;
  /** Whether the output has the orientation applied. */
  readonly oriented: boolean;
  /** The resize applied after orientation, if any. */
  readonly resize: { readonly width: number; readonly height: number; readonly fit: ResizeFit } | undefined;
  /** The output pixel size. */
  readonly output: Size;
}

/** What happens to a box that is degenerate or lies wholly outside the image. */
export type InvalidBoxPolicy = 'error' | 'drop';

/**
 * Normalizes each object's pixel box and moves it onto the output image. The annotation's declared
 * size says which frame its pixels are in: the stored pixels (what TF's decode_jpeg returns, EXIF
 * ignored; VOC and COCO tools normally annotate that) or the upright image (a declared size equal to
 * the oriented one). Boxes partly outside the image are clamped to [0, 1]; boxes with no area, wholly
 * outside, or cropped away by `fit: 'cover'` are an `IMAGE_BOX` error or dropped.
 * @returns the placed objects and how many were dropped
 * @throws TfpipeError `IMAGE_ANNOTATION` (declared size disagrees with the image), `IMAGE_BOX`
 */
export function placeObjects(
  objects: readonly ImageObject[],
  declared: Size | undefined,
  geometry: Geometry,
  policy: InvalidBoxPolicy,
  position: Position,
): { placed: PlacedObject[]; dropped: number } {
  const { stored, orientation } = geometry;
  const swaps = orientationSwapsAxes(orientation);
  const upright: Size = swaps ? { width: stored.height, height: stored.width } : stored;
  let annotatedUpright = false;
  if (declared !== undefined && (declared.width !== stored.width || declared.height !== stored.height)) {
    if (swaps && declared.width === upright.width && declared.height === upright.height)
      annotatedUpright = true;
    else {
      throw new TfpipeError(
        'IMAGE_ANNOTATION',
        `the annotation gives the image size ${declared.width}x${declared.height}, the file is ${stored.width}x${stored.height}`,
        { stage: 'imageSource', position },
      );
    }
  }
  const frame = annotatedUpright ? upright : stored;
  const beforeResize = geometry.oriented ? upright : stored;
  const placed: PlacedObject[] = [];
  let dropped = 0;
  const reject = (object: ImageObject, reason: string): void => {
    if (policy === 'drop') {
      dropped++;
      return;
    }
    throw new TfpipeError('IMAGE_BOX', 'invalid bounding box', {
      stage: 'imageSource',
      position: { ...position, annotation: object.annotation },
      reason: `${reason}: [${object.xmin}, ${object.ymin}, ${object.xmax}, ${object.ymax}] in a ${frame.width}x${frame.height} image`,
    });
  };
  for (const object of objects) {
    let box: NormalizedBox = {
      xmin: object.xmin / frame.width,
      ymin: object.ymin / frame.height,
      xmax: object.xmax / frame.width,
      ymax: object.ymax / frame.height,
    };
    if (isDegenerate(box)) {
      reject(object, 'the box has no area');
      continue;
    }
    if (isDegenerate(clampBox(box))) {
      reject(object, 'the box lies outside the image');
      continue;
    }
    box = clampBox(box);
    if (geometry.oriented && !annotatedUpright) box = orientBox(box, orientation);
    if (!geometry.oriented && annotatedUpright) box = unorientBox(box, orientation);
    if (geometry.resize !== undefined) {
      box = clampBox(resizeBox(box, beforeResize, geometry.resize, geometry.resize.fit));
      if (isDegenerate(box)) {
        reject(object, `fit: '${geometry.resize.fit}' crops the box away`);
        continue;
      }
    }
    placed.push({ object, box, area: scaleArea(object.area, beforeResize, geometry) });
  }
  return { placed, dropped };
}

function scaleArea(area: number | undefined, source: Size, geometry: Geometry): number | undefined {
  if (area === undefined || geometry.resize === undefined) return area;
  const { fit } = geometry.resize;
  if (fit === 'cover' || fit === 'contain') {
    const pick = fit === 'cover' ? Math.max : Math.min;
    const scale = pick(geometry.resize.width / source.width, geometry.resize.height / source.height);
    return area * scale * scale;
  }
  return area * (geometry.output.width / source.width) * (geometry.output.height / source.height);
}

/** A box in coordinates normalized to [0, 1] of the image's width (x) and height (y). */
export interface NormalizedBox {
  readonly xmin: number;
  readonly ymin: number;
  readonly xmax: number;
  readonly ymax: number;
}

/** Image dimensions in pixels. */
export interface Size {
  readonly width: number;
  readonly height: number;
}

/** How sharp fits an image into a target size (the subset this package offers). */
export type ResizeFit = 'cover' | 'contain' | 'fill' | 'inside';

type PointMap = (x: number, y: number) => readonly [number, number];

// EXIF orientation n says how the stored pixels must be turned to show upright; each map takes a
// normalized point of the stored image to where it is shown (x right, y down).
const ORIENT: Record<number, PointMap> = {
  1: (x, y) => [x, y],
  2: (x, y) => [1 - x, y], // mirrored horizontally
  3: (x, y) => [1 - x, 1 - y], // rotated 180°
  4: (x, y) => [x, 1 - y], // mirrored vertically
  5: (x, y) => [y, x], // transposed
  6: (x, y) => [1 - y, x], // rotate 90° clockwise to show
  7: (x, y) => [1 - y, 1 - x], // transversed
  8: (x, y) => [y, 1 - x], // rotate 90° anticlockwise to show
};
const INVERSE: Record<number, number> = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 8, 7: 7, 8: 6 };

/** True when orientation `n` swaps width and height (5 to 8). */
export function orientationSwapsAxes(orientation: number): boolean {
  return orientation >= 5 && orientation <= 8;
}

function mapBox(box: NormalizedBox, map: PointMap): NormalizedBox {
  const [x1, y1] = map(box.xmin, box.ymin);
  const [x2, y2] = map(box.xmax, box.ymax);
  return { xmin: Math.min(x1, x2), ymin: Math.min(y1, y2), xmax: Math.max(x1, x2), ymax: Math.max(y1, y2) };
}

/** A box of the stored pixels, moved to where it shows once EXIF `orientation` (1 to 8) is applied. */
export function orientBox(box: NormalizedBox, orientation: number): NormalizedBox {
  return mapBox(box, ORIENT[orientation] ?? ORIENT[1]!);
}

/** The inverse of {@link orientBox}: a box of the upright image, back in stored-pixel coordinates. */
export function unorientBox(box: NormalizedBox, orientation: number): NormalizedBox {
  return orientBox(box, INVERSE[orientation] ?? 1);
}

/**
 * A box of a `source`-sized image, moved to where it lands after sharp's `resize` to `target` with
 * `fit` and the default centre position. `fill` and `inside` scale both axes over the whole image, so
 * normalized coordinates do not change; `cover` scales to cover the target and crops the overflow
 * equally from both sides, `contain` scales to fit and pads both sides. The arithmetic follows sharp's
 * own (src/common.cc CalculateCrop, CalculateEmbedPosition), so results agree to a fraction of a pixel.
 * The result may leave [0, 1] (cropped away): callers clamp.
 */
export function resizeBox(box: NormalizedBox, source: Size, target: Size, fit: ResizeFit): NormalizedBox {
  if (fit === 'fill' || fit === 'inside') return box;
  const scale =
    fit === 'cover'
      ? Math.max(target.width / source.width, target.height / source.height)
      : Math.min(target.width / source.width, target.height / source.height);
  const scaledWidth = Math.round(source.width * scale);
  const scaledHeight = Math.round(source.height * scale);
  // cover: the crop's offset inside the scaled image; contain: the image's offset inside the canvas.
  const left =
    fit === 'cover'
      ? -Math.floor((scaledWidth - target.width + 1) / 2)
      : Math.floor((target.width - scaledWidth) / 2);
  const top =
    fit === 'cover'
      ? -Math.floor((scaledHeight - target.height + 1) / 2)
      : Math.floor((target.height - scaledHeight) / 2);
  const x = (value: number): number => (value * scaledWidth + left) / target.width;
  const y = (value: number): number => (value * scaledHeight + top) / target.height;
  return { xmin: x(box.xmin), ymin: y(box.ymin), xmax: x(box.xmax), ymax: y(box.ymax) };
}

/** The box clamped to [0, 1] on both axes. */
export function clampBox(box: NormalizedBox): NormalizedBox {
  const clamp = (value: number): number => Math.min(1, Math.max(0, value));
  return { xmin: clamp(box.xmin), ymin: clamp(box.ymin), xmax: clamp(box.xmax), ymax: clamp(box.ymax) };
}

/** True when the box has no area (or its coordinates are not finite). */
export function isDegenerate(box: NormalizedBox): boolean {
  return !(box.xmax > box.xmin && box.ymax > box.ymin);
}

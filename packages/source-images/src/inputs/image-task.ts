import type { TfpipeError } from '@tfpipe/core';
import type { Size } from '../processing/box-transform.js';

/** One annotated object of a detection set, in the pixel coordinates its annotation file gives. */
export interface ImageObject {
  /** Left edge, pixels. */
  readonly xmin: number;
  /** Top edge, pixels. */
  readonly ymin: number;
  /** Right edge, pixels. */
  readonly xmax: number;
  /** Bottom edge, pixels. */
  readonly ymax: number;
  /** Class id (`image/object/class/label`). */
  readonly label: number;
  /** Class name (`image/object/class/text`). */
  readonly text: string;
  /** VOC `difficult` (0/1). */
  readonly difficult?: number;
  /** VOC `truncated` (0/1). */
  readonly truncated?: number;
  /** VOC `pose` (`image/object/view`). */
  readonly view?: string;
  /** COCO `iscrowd` (0/1). */
  readonly isCrowd?: number;
  /** COCO `area`, pixels². */
  readonly area?: number;
  /** The annotation's id, for error messages (COCO annotation id, VOC object index). */
  readonly annotation: string;
}

/** Which detection convention an input follows; it decides the per-object keys written. */
export type DetectionStyle = 'voc' | 'coco';

/** One image to load, as an input reader describes it. Internal. */
export interface ImageTask {
  /** Absolute path of the image file. */
  readonly path: string;
  /** The directory the file must stay inside (symlinks included). */
  readonly root: string;
  /**
   * The directory listing found a regular file reached through real directories only, so no symlink
   * can lead outside `root` and the per-image real-path check is skipped.
   */
  readonly listedInside?: boolean;
  /** `image/filename`. */
  readonly filename: string;
  /** `image/source_id`. */
  readonly sourceId: string;
  /** The annotation that named the file (COCO image id, VOC XML file, list line), for errors. */
  readonly annotation?: string;
  /** The list or annotation file line, when known (1-based). */
  readonly line?: number;
  /** Image-level class. */
  readonly label?: { readonly id: number; readonly text: string | undefined };
  /** Detection objects; present (maybe empty) for detection inputs. */
  readonly objects?: readonly ImageObject[];
  /** The detection convention, when `objects` is present. */
  readonly detection?: DetectionStyle;
  /** The size the annotation declares, pixels; boxes are relative to it. */
  readonly declaredSize?: Size;
  /** A problem found while reading the annotation, raised when this image's turn comes (so `skip` applies). */
  readonly error?: TfpipeError;
  /** Extra list columns, passed through under their own names. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** What an input reader produces before any image is opened. */
export interface ImageInput {
  /** The images, in output order. */
  readonly tasks: readonly ImageTask[];
  /** Class names by id, when the input defines classes. */
  readonly labelMap?: LabelMap;
  /** Annotations dropped while reading (e.g. under `invalidBoxes: 'drop'`). */
  readonly droppedObjects?: number;
}

/** A class id and its name. */
export interface LabelEntry {
  /** The id written as `image/class/label` / `image/object/class/label`. */
  readonly id: number;
  /** The class name written as `image/class/text` / `image/object/class/text`. */
  readonly name: string;
}

/** Classes by id, ascending. */
export type LabelMap = readonly LabelEntry[];

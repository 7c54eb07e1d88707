import { bytes, bytesList, floatList, int64, int64List, TfpipeError } from '@tfpipe/core';
import type { Feature } from '@tfpipe/core';
import type { ImageTask } from './inputs/image-task.js';
import type { ImageKeyRole, ImageKeys } from './image-keys.js';
import type { ProcessedImage } from './processing/process-image.js';

/**
 * One image as a row: every image key (see DEFAULT_IMAGE_KEYS, renamed by `keys`) holds a ready
 * `tf.train.Feature` object, which core's `buildExamples` passes through unchanged and
 * {@link imageExamples} copies as is. Extra columns of a list file keep their plain values (strings
 * from CSV, JSON values from JSON Lines) under their own names. The row carries its position
 * (`file`, `recordIndex`, `annotation`) under core's `POSITION`.
 */
export type ImageRecord = Readonly<Record<string, unknown>>;

/** The row for one processed image. Internal. */
export function buildImageRecord(
  task: ImageTask,
  image: ProcessedImage,
  keys: ImageKeys,
): Record<string, unknown> {
  const row: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const put = (role: ImageKeyRole, feature: Feature): void => {
    const name = keys[role];
    if (name !== false) row[name] = feature;
  };
  put('encoded', bytes(image.encoded));
  put('format', bytes(image.format));
  put('height', int64(image.size.height));
  put('width', int64(image.size.width));
  put('channels', int64(image.channels));
  put('filename', bytes(task.filename));
  put('sourceId', bytes(task.sourceId));
  if (image.sha256 !== undefined) put('sha256', bytes(image.sha256));
  if (image.format === 'raw') put('shape', int64(image.size.height, image.size.width, image.channels));
  if (task.label !== undefined) {
    put('label', int64(task.label.id));
    if (task.label.text !== undefined) put('text', bytes(task.label.text));
  }
  if (image.objects !== undefined) {
    const objects = image.objects;
    put('xmin', floatList(objects.map((item) => item.box.xmin)));
    put('ymin', floatList(objects.map((item) => item.box.ymin)));
    put('xmax', floatList(objects.map((item) => item.box.xmax)));
    put('ymax', floatList(objects.map((item) => item.box.ymax)));
    put('objectText', bytesList(objects.map((item) => item.object.text)));
    put('objectLabel', int64List(objects.map((item) => item.object.label)));
    if (task.detection === 'voc') {
      put('difficult', int64List(objects.map((item) => item.object.difficult ?? 0)));
      put('truncated', int64List(objects.map((item) => item.object.truncated ?? 0)));
      put('view', bytesList(objects.map((item) => item.object.view ?? 'Unspecified')));
    } else {
      put('isCrowd', int64List(objects.map((item) => item.object.isCrowd ?? 0)));
      put('area', floatList(objects.map((item) => item.area ?? 0)));
    }
  }
  for (const [name, value] of Object.entries(task.extra ?? {})) {
    if (name in row) {
      throw new TfpipeError('IMAGE_ANNOTATION', `list column "${name}" has the name of an image feature`, {
        stage: 'imageSource',
        position: { field: name },
        fatal: true,
        reason: 'rename the column or the key with the keys option',
      });
    }
    row[name] = value;
  }
  return row;
}

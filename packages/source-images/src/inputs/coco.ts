import { TfpipeError } from '@tfpipe/core';
import type { ImageInput, ImageObject, ImageTask, LabelMap } from './image-task.js';
import { readInputText } from './read-input-file.js';
import { joinInside } from './safe-path.js';

interface CocoImage {
  readonly id: unknown;
  readonly file_name: unknown;
  readonly width: unknown;
  readonly height: unknown;
}

interface CocoAnnotation {
  readonly id?: unknown;
  readonly image_id: unknown;
  readonly category_id: unknown;
  readonly bbox: unknown;
  readonly iscrowd?: unknown;
  readonly area?: unknown;
}

/**
 * A COCO instances JSON file (`images`, `annotations`, `categories`). Each entry of `images` becomes
 * one image in file order, `file_name` resolved inside `images`; its annotations' `bbox`
 * (`[x, y, width, height]` in pixels), `category_id` (written as the class id, with the category's
 * name as text), `iscrowd` and `area` become objects, as TF's create_coco_tf_record.py reads them.
 * @throws TfpipeError fatal `JSON_PARSE` / `IMAGE_ANNOTATION` when the file is not COCO at all or
 * gives a category id twice; a bad image entry or annotation becomes that image's error
 */
export async function readCoco(file: string, images: string): Promise<ImageInput> {
  const text = await readInputText(file);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new TfpipeError('JSON_PARSE', 'malformed COCO annotation file', {
      stage: 'imageSource',
      position: { file },
      cause: error,
      fatal: true,
      reason: (error as Error).message,
    });
  }
  const root = document as { images?: unknown; annotations?: unknown; categories?: unknown };
  for (const name of ['images', 'annotations', 'categories'] as const) {
    if (!Array.isArray(root[name])) {
      throw new TfpipeError('IMAGE_ANNOTATION', `a COCO instances file needs a "${name}" array`, {
        stage: 'imageSource',
        position: { file },
        fatal: true,
      });
    }
  }
  const categories = new Map<number, string>();
  for (const category of root.categories as { id?: unknown; name?: unknown }[]) {
    if (!Number.isSafeInteger(category.id) || typeof category.name !== 'string') {
      throw new TfpipeError(
        'IMAGE_ANNOTATION',
        'each COCO category needs an integer "id" and a string "name"',
        {
          stage: 'imageSource',
          position: { file, annotation: `category ${JSON.stringify(category.id)}` },
          fatal: true,
        },
      );
    }
    // A second name for an id would relabel every object of the first: refuse rather than guess.
    const earlier = categories.get(category.id as number);
    if (earlier !== undefined) {
      throw new TfpipeError('IMAGE_ANNOTATION', `COCO category id ${String(category.id)} is given twice`, {
        stage: 'imageSource',
        position: { file, annotation: `category ${String(category.id)}` },
        fatal: true,
        reason: `as ${JSON.stringify(earlier)} and as ${JSON.stringify(category.name)}`,
      });
    }
    categories.set(category.id as number, category.name);
  }
  const labelMap: LabelMap = [...categories].sort(([a], [b]) => a - b).map(([id, name]) => ({ id, name }));
  const byImage = new Map<unknown, CocoAnnotation[]>();
  for (const annotation of root.annotations as CocoAnnotation[]) {
    const list = byImage.get(annotation.image_id) ?? [];
    list.push(annotation);
    byImage.set(annotation.image_id, list);
  }
  const tasks = (root.images as CocoImage[]).map((image, index): ImageTask => {
    const annotation = `image ${String(image.id)}`;
    const position = { file, annotation };
    const filename = typeof image.file_name === 'string' ? image.file_name : '';
    const base = {
      root: images,
      filename,
      sourceId: String(image.id),
      annotation,
      detection: 'coco' as const,
    };
    try {
      if (filename === '' || !Number.isSafeInteger(image.width) || !Number.isSafeInteger(image.height)) {
        throw new TfpipeError(
          'IMAGE_ANNOTATION',
          `COCO images[${index}] needs "file_name", "width" and "height"`,
          {
            stage: 'imageSource',
            position,
          },
        );
      }
      const objects = (byImage.get(image.id) ?? []).map((item) => cocoObject(item, categories, file));
      return {
        ...base,
        path: joinInside(images, filename, position),
        objects,
        declaredSize: { width: image.width as number, height: image.height as number },
      };
    } catch (error) {
      return { ...base, path: `${images}/${filename}`, objects: [], error: error as TfpipeError };
    }
  });
  return { tasks, labelMap };
}

function cocoObject(
  item: CocoAnnotation,
  categories: ReadonlyMap<number, string>,
  file: string,
): ImageObject {
  const annotation = `annotation ${String(item.id)} of image ${String(item.image_id)}`;
  const fail = (reason: string): TfpipeError =>
    new TfpipeError('IMAGE_ANNOTATION', 'bad COCO annotation', {
      stage: 'imageSource',
      position: { file, annotation },
      reason,
    });
  const bbox = item.bbox;
  if (
    !Array.isArray(bbox) ||
    bbox.length !== 4 ||
    !bbox.every((value) => typeof value === 'number' && Number.isFinite(value))
  ) {
    throw fail(`"bbox" must be [x, y, width, height] numbers, got ${JSON.stringify(bbox)}`);
  }
  const [x, y, width, height] = bbox as [number, number, number, number];
  const text = categories.get(item.category_id as number);
  if (text === undefined)
    throw fail(`"category_id" ${JSON.stringify(item.category_id)} is not in "categories"`);
  const isCrowd = item.iscrowd ?? 0;
  if (isCrowd !== 0 && isCrowd !== 1) throw fail(`"iscrowd" must be 0 or 1, got ${JSON.stringify(isCrowd)}`);
  const area = item.area ?? width * height;
  if (typeof area !== 'number' || !Number.isFinite(area)) throw fail(`"area" must be a number`);
  return {
    xmin: x,
    ymin: y,
    xmax: x + width,
    ymax: y + height,
    label: item.category_id as number,
    text,
    isCrowd,
    area,
    annotation: String(item.id),
  };
}

import { reportOf } from '@tfpipe/core';
import { defineSourcePlugin, optionsSchema, type SideFile } from '@tfpipe/core/plugin';
import type { z } from 'zod';
import { IMAGE_OPTIONS_STAGE, imagePluginSchema } from './image-options-schema.js';
import type { ImageRecord } from './image-record.js';
import { imageSource } from './image-source.js';
import { imageExamples } from './image-examples.js';
import type { LabelMap } from './inputs/image-task.js';
import { formatLabelMap } from './label-map.js';

/** Drops keys whose value is `undefined` (zod's optional keys), for exactOptionalPropertyTypes. */
function defined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as never;
}

/**
 * The options of the image source plugin in a pipeline file: `imageSource`'s options but callbacks.
 * The same definitions check `imageSource` in code, so an option is refused with the same message
 * either way.
 */
export const imageSourceOptionsSchema = optionsSchema(IMAGE_OPTIONS_STAGE, imagePluginSchema);

/** Checked options of the image plugin. */
export type ImageSourcePluginOptions = z.output<ReturnType<typeof imagePluginSchema>>;

const PATHS = ['folder', 'list', 'coco', 'voc', 'images'] as const;

/** `labels.txt` (`id:name` lines) when the run met classes: the label map from the stream's report. */
function labelMapFiles(readable: object): SideFile[] {
  const labelMap = reportOf(readable)?.details?.labelMap as LabelMap | undefined;
  if (!Array.isArray(labelMap) || labelMap.length === 0) return [];
  return [{ name: 'labels.txt', contents: formatLabelMap(labelMap, 'txt') }];
}

/**
 * `@tfpipe/source-images` as a config-file source: `{ "plugin": "@tfpipe/source-images",
 * "options": { "folder": "flowers", "resize": { "width": 224, "height": 224 } } }`. Rows hold
 * ready `image/*` Features; without a pipeline `spec` they become Examples as they are. Its side
 * file is the label map of the classes met, `labels.txt`.
 */
export const plugin = defineSourcePlugin<ImageSourcePluginOptions, ImageRecord>({
  kind: 'source',
  name: '@tfpipe/source-images',
  description: 'image folders, list files, COCO and Pascal VOC (sharp)',
  options: imageSourceOptionsSchema,
  output: 'rows',
  create(options, context) {
    const resolved: Record<string, unknown> = { ...defined(options) };
    for (const key of PATHS) {
      const value = options[key];
      if (value !== undefined) resolved[key] = context.resolvePath(value);
    }
    if (options.exclude !== undefined)
      resolved.exclude = options.exclude.map((item) => context.resolvePath(item));
    const readable = imageSource({ ...(resolved as object), onError: context.onError });
    // Without a spec the rows become Examples by imageExamples, which passes lent images on.
    return { readable, toExamples: () => imageExamples(), sideFiles: () => labelMapFiles(readable) };
  },
});

import { reportOf } from '@tfpipe/core';
import { defineSourcePlugin, type SideFile } from '@tfpipe/core/plugin';
import { z } from 'zod';
import type { ImageRecord } from './image-record.js';
import { imageSource } from './image-source.js';
import { imageExamples } from './image-examples.js';
import type { LabelMap } from './inputs/image-task.js';
import { formatLabelMap } from './label-map.js';

/** Drops keys whose value is `undefined` (zod's optional keys), for exactOptionalPropertyTypes. */
function defined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as never;
}

const name = z.string({ error: 'expected a string' }).min(1, { error: 'expected a non-empty string' });
const positiveInteger = z
  .int({ error: 'expected a positive integer' })
  .min(1, { error: 'expected a positive integer' });
const flag = z.boolean({ error: 'expected true or false' });

/** The options of the image source plugin in a config file. */
export const imageSourceOptionsSchema = z.strictObject({
  folder: name.optional(),
  list: name.optional(),
  coco: name.optional(),
  voc: name.optional(),
  images: name.optional(),
  classNames: z.array(name, { error: 'expected a list of class names' }).optional(),
  labelBase: z.int({ error: 'expected an integer' }).optional(),
  extensions: z.array(name, { error: 'expected a list of extensions' }).optional(),
  resize: z
    .strictObject({
      width: positiveInteger,
      height: positiveInteger,
      fit: z
        .enum(['cover', 'contain', 'fill', 'inside'], {
          error: 'expected "cover", "contain", "fill" or "inside"',
        })
        .optional(),
    })
    .optional(),
  channels: z.enum(['rgb', 'grayscale'], { error: 'expected "rgb" or "grayscale"' }).optional(),
  format: z.enum(['jpeg', 'png', 'webp'], { error: 'expected "jpeg", "png" or "webp"' }).optional(),
  quality: z
    .int({ error: 'expected an integer from 1 to 100' })
    .min(1)
    .max(100, { error: 'expected an integer from 1 to 100' })
    .optional(),
  raw: flag.optional(),
  autoOrient: flag.optional(),
  maxPixels: positiveInteger.optional(),
  maxFileBytes: positiveInteger.optional(),
  allowEmpty: flag.optional(),
  exclude: z.array(name, { error: 'expected a list of paths' }).optional(),
  verify: z.enum(['structure', 'decode'], { error: 'expected "structure" or "decode"' }).optional(),
  invalidBoxes: z.enum(['error', 'drop'], { error: 'expected "error" or "drop"' }).optional(),
  ignoreDifficult: flag.optional(),
  concurrency: positiveInteger.optional(),
  keys: z
    .record(z.string(), z.union([name, z.literal(false)]), { error: 'expected role → feature name or false' })
    .optional(),
});

/** Checked options of the image plugin. */
export type ImageSourcePluginOptions = z.infer<typeof imageSourceOptionsSchema>;

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

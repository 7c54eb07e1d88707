import { bytesList, example, floatList, int64List, positionOf, TfpipeError } from '@tfpipe/core';
import { markLending, passRelease, STAGE_PASSES_RELEASE } from '@tfpipe/core/internal';
import { withPosition } from '@tfpipe/core/plugin';
import type { Example, Feature } from '@tfpipe/core';
import { DEFAULT_IMAGE_KEYS, IMAGE_KEY_KINDS, resolveImageKeys, type ImageKeyRole } from './image-keys.js';
import { checkImageKeyOptions } from './image-options-schema.js';
import type { ImageRecord } from './image-record.js';

/** One entry of core's `buildExamples` spec as {@link imageExampleSpec} writes it. */
export interface ImageFeatureSpec {
  /** The tf.train.Feature kind. */
  readonly kind: 'bytes' | 'int64' | 'float';
  /** Image keys absent from a record (no label, not a detection set) are left out of the Example. */
  readonly missing: 'omit';
}

/**
 * The `buildExamples` spec for image records: every image key (renamed by `keys`, `false` ones left
 * out) with its kind, missing ones omitted. Add your list file's extra columns to it yourself:
 * `buildExamples({ ...imageExampleSpec(), weight: 'float' })`.
 * @throws TfpipeError `INVALID_OPTION` for an unknown role, an empty name or two roles naming one feature
 */
export function imageExampleSpec(
  options: { readonly keys?: Partial<Record<ImageKeyRole, string | false>> } = {},
): Record<string, ImageFeatureSpec> {
  checkImageKeyOptions(options);
  const keys = resolveImageKeys(options.keys);
  const spec: Record<string, ImageFeatureSpec> = {};
  for (const role of Object.keys(DEFAULT_IMAGE_KEYS) as ImageKeyRole[]) {
    const name = keys[role];
    if (name !== false) spec[name] = { kind: IMAGE_KEY_KINDS[role], missing: 'omit' };
  }
  return spec;
}

/**
 * Image records to Examples without a spec: Feature values are copied as they are; extra list
 * columns become features by their JavaScript type (string → bytes, integer number or bigint →
 * int64, other number → float, boolean → int64 0/1, arrays of one of those → a list; null, undefined
 * and '' are left out). Use `buildExamples` instead to give extra columns explicit kinds.
 * @throws TfpipeError `FEATURE_TYPE` (with the record's position) for a value of another type
 */
export function imageExamples(): TransformStream<ImageRecord, Example> {
  // An Example takes the release hook of the record it is made from (lent kept bytes, see imageSource).
  const stream = new TransformStream<ImageRecord, Example>({
    transform(record, controller) {
      const features: Record<string, Feature> = {};
      for (const [name, value] of Object.entries(record)) {
        const feature = toFeature(value);
        if (feature === null) {
          throw new TfpipeError('FEATURE_TYPE', `cannot make a feature of a ${typeof value} value`, {
            stage: 'imageExamples',
            position: { ...positionOf(record), field: name },
          });
        }
        if (feature !== undefined) features[name] = feature;
      }
      const position = positionOf(record);
      const built = passRelease(record, example(features));
      controller.enqueue(position === undefined ? built : withPosition(built, position));
    },
  });
  return markLending(stream, STAGE_PASSES_RELEASE);
}

function isFeature(value: unknown): value is Feature {
  if (typeof value !== 'object' || value === null || !('kind' in value) || !('value' in value)) return false;
  const kind = (value as { kind: unknown }).kind;
  return kind === 'bytes' || kind === 'float' || kind === 'int64' || kind === 'none';
}

// undefined: leave out; null: not convertible.
function toFeature(value: unknown): Feature | undefined | null {
  if (isFeature(value)) return value;
  if (value === null || value === undefined || value === '') return undefined;
  const values = Array.isArray(value) ? (value as unknown[]) : [value];
  if (values.every((item) => typeof item === 'string')) return bytesList(values);
  if (values.every((item) => typeof item === 'boolean'))
    return int64List(values.map((item) => (item ? 1 : 0)));
  if (
    values.every(
      (item) => typeof item === 'bigint' || (typeof item === 'number' && Number.isSafeInteger(item)),
    )
  ) {
    return int64List(values as (number | bigint)[]);
  }
  if (values.every((item) => typeof item === 'number')) return floatList(values);
  return null;
}

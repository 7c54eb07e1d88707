/**
 * The feature names this package writes, by role. Defaults follow tensorflow/models
 * (object_detection/core/standard_fields.py TfExampleFields, slim/datasets/dataset_utils.py) and the
 * TF Object Detection API's create_pascal_tf_record.py / create_coco_tf_record.py.
 */
export const DEFAULT_IMAGE_KEYS = {
  /** The image bytes (encoded, or raw HWC uint8 with `raw: true`). bytes. */
  encoded: 'image/encoded',
  /** `jpeg`, `png`, `webp`, `gif`, or `raw`. bytes. */
  format: 'image/format',
  /** Pixels. int64. */
  height: 'image/height',
  /** Pixels. int64. */
  width: 'image/width',
  /** Channels of the encoded image (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA). int64. */
  channels: 'image/channels',
  /** The file name (class folders and lists: the path relative to the root). bytes. */
  filename: 'image/filename',
  /** VOC: the file name; COCO: the image id; others: the relative path. bytes. */
  sourceId: 'image/source_id',
  /** Lowercase hex SHA-256 of `image/encoded`. bytes. */
  sha256: 'image/key/sha256',
  /** Image class id. int64. */
  label: 'image/class/label',
  /** Image class name. bytes. */
  text: 'image/class/text',
  /** `[height, width, channels]` for raw pixels. int64. */
  shape: 'image/shape',
  /** Box left edges, normalized. float. */
  xmin: 'image/object/bbox/xmin',
  /** Box top edges, normalized. float. */
  ymin: 'image/object/bbox/ymin',
  /** Box right edges, normalized. float. */
  xmax: 'image/object/bbox/xmax',
  /** Box bottom edges, normalized. float. */
  ymax: 'image/object/bbox/ymax',
  /** Object class ids. int64. */
  objectLabel: 'image/object/class/label',
  /** Object class names. bytes. */
  objectText: 'image/object/class/text',
  /** VOC difficult flags. int64. */
  difficult: 'image/object/difficult',
  /** VOC truncated flags. int64. */
  truncated: 'image/object/truncated',
  /** VOC poses. bytes. */
  view: 'image/object/view',
  /** COCO iscrowd flags. int64. */
  isCrowd: 'image/object/is_crowd',
  /** COCO areas, pixels² of the output image. float. */
  area: 'image/object/area',
} as const;

/** A role in {@link DEFAULT_IMAGE_KEYS}. */
export type ImageKeyRole = keyof typeof DEFAULT_IMAGE_KEYS;

/** Feature names by role; `false` leaves the feature out. */
export type ImageKeys = Readonly<Record<ImageKeyRole, string | false>>;

/** The tf.train.Feature kind each role is written as. */
export const IMAGE_KEY_KINDS: Readonly<Record<ImageKeyRole, 'bytes' | 'int64' | 'float'>> = {
  encoded: 'bytes',
  format: 'bytes',
  height: 'int64',
  width: 'int64',
  channels: 'int64',
  filename: 'bytes',
  sourceId: 'bytes',
  sha256: 'bytes',
  label: 'int64',
  text: 'bytes',
  shape: 'int64',
  xmin: 'float',
  ymin: 'float',
  xmax: 'float',
  ymax: 'float',
  objectLabel: 'int64',
  objectText: 'bytes',
  difficult: 'int64',
  truncated: 'int64',
  view: 'bytes',
  isCrowd: 'int64',
  area: 'float',
};

/**
 * The defaults with the user's overrides applied. The overrides are checked first by the options
 * schema (`image-options-schema.ts`: known roles, non-empty names, each feature name once).
 */
export function resolveImageKeys(
  overrides: Readonly<Partial<Record<ImageKeyRole, string | false>>> = {},
): ImageKeys {
  const keys: Record<string, string | false> = { ...DEFAULT_IMAGE_KEYS };
  for (const [role, name] of Object.entries(overrides)) if (name !== undefined) keys[role] = name;
  return keys as ImageKeys;
}

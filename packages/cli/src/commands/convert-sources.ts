/** The flags of each source, for `tfpipe convert`. */
export const SOURCE_FLAGS = {
  sequence: { type: 'boolean' },
  label: { type: 'string' },
  schema: { type: 'string' },
  'infer-rows': { type: 'string' },
  delimiter: { type: 'string' },
  resize: { type: 'string' },
  fit: { type: 'string' },
  format: { type: 'string' },
  quality: { type: 'string' },
  grayscale: { type: 'boolean' },
  'max-file-bytes': { type: 'string' },
  coco: { type: 'string' },
  voc: { type: 'string' },
  columns: { type: 'string' },
} as const;

/** Help lines for {@link SOURCE_FLAGS}. */
export const SOURCE_FLAGS_HELP = `Input (IN is picked by its extension or, for a directory, by what it holds):
  .jsonl                Examples in protobuf's JSON form, one per line (--sequence: SequenceExamples)
  TFRecord files        re-shard, recompress or merge (payloads are copied, not re-encoded)
  .csv / .tsv           --label COLUMN (string labels become ids), --schema FILE, --infer-rows N|all,
                        --delimiter C
  .parquet / a folder   --columns a,b,c
  an image folder       class folders root/<class>/<file>; --coco FILE or --voc DIR for detection sets;
                        --resize WxH, --fit cover|contain|fill|inside, --format jpeg|png|webp,
                        --quality 1-100, --grayscale, --max-file-bytes SIZE (refuse larger image
                        files, default 256M); an OUT inside the image folder is not read as a class`;

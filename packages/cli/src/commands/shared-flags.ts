/**
 * Flag sets several commands share, with their help lines: plain data, so that the command table and
 * `tfpipe --help` load nothing else.
 */

/** The flags `run` and `convert` share for running a pipeline. */
export const RUN_FLAGS = {
  overwrite: { type: 'boolean' },
  quiet: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

/** The flags every reading command shares. */
export const READ_FLAGS = {
  compression: { type: 'string' },
  sequence: { type: 'boolean' },
  'max-record-bytes': { type: 'string' },
} as const;

/** Help lines for {@link READ_FLAGS}. */
export const READ_FLAGS_HELP = `  --compression C       auto (default: detected from the first bytes), none, gzip or zlib
  --sequence            the records are SequenceExamples (default: the manifest's payload type, else Example)
  --max-record-bytes N  refuse records longer than N bytes (default 256M)`;

/** The flags of each source, for `tfpipe convert`. */
export const SOURCE_FLAGS = {
  sequence: { type: 'boolean' },
  'max-record-bytes': { type: 'string' },
  label: { type: 'string' },
  schema: { type: 'string' },
  'infer-rows': { type: 'string' },
  delimiter: { type: 'string' },
  'max-record-length': { type: 'string' },
  threads: { type: 'string' },
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
export const SOURCE_FLAGS_HELP = `Input (IN is picked by its extension or, for a directory, by what it holds; a flag for
another kind of input is refused):
  .jsonl                Examples in protobuf's JSON form, one per line (--sequence: SequenceExamples)
  TFRecord files        re-shard, recompress or merge (payloads are copied, not re-encoded);
                        --sequence, --max-record-bytes SIZE (default 256M)
  .csv / .tsv           --label COLUMN (string labels become ids), --schema FILE, --infer-rows N|all,
                        --delimiter C, --max-record-length N (characters per record, default 64Mi),
                        --threads 1|2|auto (2: a worker thread parses and encodes the file's rest;
                        default auto: files of 4 MiB and more, 4+ cores, one idle)
  .parquet / a folder   --columns a,b,c
  an image folder       class folders root/<class>/<file>; --coco FILE or --voc DIR for detection sets;
                        --resize WxH, --fit cover|contain|fill|inside, --format jpeg|png|webp,
                        --quality 1-100, --grayscale, --max-file-bytes SIZE (refuse larger image
                        files, default 256M); an OUT inside the image folder is not read as a class`;

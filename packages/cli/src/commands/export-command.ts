import type { Command } from '../command.js';

/** `tfpipe export`: parsed columns of TFRecord files as Parquet, CSV or JSON Lines. */
export const exportCommand: Command = {
  name: 'export',
  summary: 'parse records with a --spec and write the columns as .parquet, .csv or .jsonl',
  usage: `Usage: tfpipe export FILE... OUT --spec SPEC [options]

Parses the Examples of TFRecord files (paths or globs, read in order) with the JSON spec file SPEC
(tfpipe schema FILE --format spec writes one) and writes one column per spec entry to OUT, whose
extension picks the format:
  .parquet              int64 as INT64, int32, number as DOUBLE, float32 as FLOAT, string as
                        BYTE_ARRAY; a fixedLen of more than one value, a varLen and a ragged as a LIST
                        (fixedLen values flat, row-major); one row group per --row-group rows
  .csv                  RFC 4180 (CRLF, a field with a comma, quote, CR or LF quoted): a header of
                        the names; numbers as exact decimals; bytes as they are; lists as JSON arrays
  .jsonl                one JSON object per record: int64 as exact JSON numbers, bytes as base64,
                        NaN and infinities as "NaN", "Infinity", "-Infinity"
The rows are written as they are read, one row group at a time, into a temporary file beside OUT that
replaces OUT only once complete: an error or an interruption leaves no OUT.

Options:
  --spec FILE           the JSON spec file (required): fixedLen, varLen and ragged (no partitions)
  --row-group N         records per batch and Parquet row group (default 10000)
  --overwrite           replace an existing OUT
  --quiet               no progress line on a terminal
  --compression C       auto (default: detected from the first bytes), none, gzip or zlib
  --max-record-bytes N  refuse records longer than N bytes (default 256M)`,
  options: {
    spec: { type: 'string' },
    'row-group': { type: 'string' },
    overwrite: { type: 'boolean' },
    quiet: { type: 'boolean' },
    compression: { type: 'string' },
    'max-record-bytes': { type: 'string' },
  },
  load: async () => (await import('./export.js')).exportFiles,
};

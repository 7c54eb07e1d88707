import {
  crc32c,
  expandTfrecordPaths,
  fastCrc32cRange,
  nodeDecompressor,
} from '@tfpipe/sink-tfrecord/internal';
import { TfrecordDataset, datasetSource } from '../tfrecord/tfrecord-dataset.js';
import type { TfrecordDatasetOptions } from '../tfrecord/tfrecord-dataset.js';
import { webFiles } from '../tfrecord/tfrecord-file.js';
import type { TfrecordFile, WebTfrecordInput } from '../tfrecord/tfrecord-file.js';
import { nodeFile } from './node-file.js';
import { parseThreadsFor } from './parse-workers.js';
import { nodeSpanCrcs } from './run-crcs.js';

/** What the Node entry reads: file paths and globs, and everything the web entry reads. */
export type TfrecordInput = string | WebTfrecordInput;

/**
 * `tf.data.TFRecordDataset` in Node: the records of files, globs (`*`, `?`, `[…]`, `**`, `{a,b}`, sorted,
 * sidecars left out), `Blob`s, `URL`s or streams; gzip and zlib detected per file; both CRCs of every
 * record verified. Files that have a `.idx` index beside them
 * can be sharded by record reading only each shard's bytes.
 * @throws TfpipeError `INVALID_OPTION` for a bad option (a glob that matches nothing fails on the first read)
 */
export function tfrecordDataset(
  inputs: TfrecordInput | readonly TfrecordInput[],
  options: TfrecordDatasetOptions = {},
): TfrecordDataset {
  const list = Array.isArray(inputs) ? (inputs as readonly TfrecordInput[]) : [inputs as TfrecordInput];
  const files = async (): Promise<TfrecordFile[]> => {
    const out: TfrecordFile[] = [];
    for (const input of list) {
      if (typeof input !== 'string') out.push(...webFiles([input]));
      else for (const path of await expandTfrecordPaths(input, 'tfrecordDataset')) out.push(nodeFile(path));
    }
    return out;
  };
  return new TfrecordDataset(
    datasetSource(
      files,
      options,
      // The JS CRC over the reader's buffer for small records, where a native call's fixed cost and a
      // view per call cost more than they save; the native one over large records (bench/README.md, case c).
      { crc: crc32c, crcRange: fastCrc32cRange, decompressor: nodeDecompressor },
      parseThreadsFor,
      nodeSpanCrcs(),
    ),
  );
}

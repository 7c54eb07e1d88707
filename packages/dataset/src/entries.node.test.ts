// Each entry's exports as users get them (imported by the package's name, from the built files):
// a name added to or removed from an entry is a decision made in review, here.
import { fileURLToPath } from 'node:url';
import * as dataset from '@tfpipe/dataset';
import * as datasetNode from '@tfpipe/dataset/node';
import * as datasetOrt from '@tfpipe/dataset/ort';
import * as datasetTfjs from '@tfpipe/dataset/tfjs';
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { exportSurface } from '../../../test-support/export-surface.js';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));

describe('the entries of @tfpipe/dataset', () => {
  test('@tfpipe/dataset', async () => {
    expect(await exportSurface(packageDirectory, '.', dataset)).toMatchInlineSnapshot(`
      [
        "BatchOrigin: type",
        "Chunks: type",
        "Dataset: function",
        "DecodeImage: type",
        "DecodeImageOptions: type",
        "DecodeImages: type",
        "DecodeImagesOptions: type",
        "DefaultJson: type",
        "DefaultScalar: type",
        "DefaultValue: type",
        "DenseTensor: type",
        "Dtype: type",
        "ExampleParseSpec: type",
        "ExampleParser: type",
        "FeatureSpec: type",
        "FeatureSpecJson: type",
        "FixedLenOptions: type",
        "FixedLenSequenceOptions: type",
        "FixedLenSequenceSpec: type",
        "FixedLenSpec: type",
        "GeneratedSpec: type",
        "ImageArray: type",
        "ImageDtype: type",
        "ImageFit: type",
        "ImageKernel: type",
        "ImageResize: type",
        "ImageTensor: type",
        "IntegerDtype: type",
        "InterleaveOptions: type",
        "MapFunction: type",
        "OpenChunks: type",
        "Paddable: type",
        "PaddableArray: type",
        "PaddedBatch: type",
        "PaddedBatchOptions: type",
        "PaddedTensorOf: type",
        "ParseOptions: type",
        "ParsedBatch: type",
        "ParsedSequenceBatch: type",
        "ParsedSpecJson: type",
        "PassPosition: type",
        "RaggedOptions: type",
        "RaggedPartition: type",
        "RaggedPartitionJson: type",
        "RaggedSpec: type",
        "RaggedTensor: type",
        "RecordIndex: type",
        "RecordRange: type",
        "SequenceExampleParser: type",
        "SequenceParseSpec: type",
        "ShardOptions: type",
        "ShuffleOptions: type",
        "SparseOptions: type",
        "SparseSpec: type",
        "SparseTensor: type",
        "SpecJson: type",
        "SpecTypeScriptOptions: type",
        "Tensor: type",
        "TensorData: type",
        "TensorOf: type",
        "TfRecord: type",
        "TfrecordDataset: function",
        "TfrecordDatasetOptions: type",
        "TfrecordDatasetSource: type",
        "TfrecordFile: type",
        "VarLenSpec: type",
        "WebTfrecordInput: type",
        "WithImages: type",
        "decodeImage: function",
        "decodeImages: function",
        "fixedLen: function",
        "fixedLenSequence: function",
        "fromArray: function",
        "parseExample: function",
        "parseSequenceExample: function",
        "ragged: function",
        "rowLengths: function",
        "rowLimits: function",
        "rowSplits: function",
        "rowStarts: function",
        "sparse: function",
        "specFromJson: function",
        "specFromJsonText: function",
        "specFromStats: function",
        "specToJson: function",
        "specTypeScript: function",
        "specTypeScriptFromStats: function",
        "tfrecordDataset: function",
        "uniformRowLength: function",
        "valueRowIds: function",
        "varLen: function",
      ]
    `);
  });

  test('@tfpipe/dataset/node', async () => {
    expect(await exportSurface(packageDirectory, './node', datasetNode)).toMatchInlineSnapshot(`
      [
        "BatchOrigin: type",
        "Chunks: type",
        "Dataset: function",
        "DecodeImage: type",
        "DecodeImageOptions: type",
        "DecodeImages: type",
        "DecodeImagesOptions: type",
        "DefaultJson: type",
        "DefaultScalar: type",
        "DefaultValue: type",
        "DenseTensor: type",
        "Dtype: type",
        "ExampleParseSpec: type",
        "ExampleParser: type",
        "FeatureSpec: type",
        "FeatureSpecJson: type",
        "FixedLenOptions: type",
        "FixedLenSequenceOptions: type",
        "FixedLenSequenceSpec: type",
        "FixedLenSpec: type",
        "GeneratedSpec: type",
        "ImageArray: type",
        "ImageDtype: type",
        "ImageFit: type",
        "ImageKernel: type",
        "ImageResize: type",
        "ImageTensor: type",
        "IntegerDtype: type",
        "InterleaveOptions: type",
        "MapFunction: type",
        "OpenChunks: type",
        "Paddable: type",
        "PaddableArray: type",
        "PaddedBatch: type",
        "PaddedBatchOptions: type",
        "PaddedTensorOf: type",
        "ParseOptions: type",
        "ParsedBatch: type",
        "ParsedSequenceBatch: type",
        "ParsedSpecJson: type",
        "PassPosition: type",
        "RaggedOptions: type",
        "RaggedPartition: type",
        "RaggedPartitionJson: type",
        "RaggedSpec: type",
        "RaggedTensor: type",
        "RecordIndex: type",
        "RecordRange: type",
        "SequenceExampleParser: type",
        "SequenceParseSpec: type",
        "ShardOptions: type",
        "ShuffleOptions: type",
        "SparseOptions: type",
        "SparseSpec: type",
        "SparseTensor: type",
        "SpecJson: type",
        "SpecTypeScriptOptions: type",
        "Tensor: type",
        "TensorData: type",
        "TensorOf: type",
        "TfRecord: type",
        "TfrecordDataset: function",
        "TfrecordDatasetOptions: type",
        "TfrecordDatasetSource: type",
        "TfrecordFile: type",
        "TfrecordInput: type",
        "VarLenSpec: type",
        "WebTfrecordInput: type",
        "WithImages: type",
        "decodeImage: function",
        "decodeImages: function",
        "fixedLen: function",
        "fixedLenSequence: function",
        "fromArray: function",
        "parseExample: function",
        "parseSequenceExample: function",
        "ragged: function",
        "readRecordIndex: function",
        "rowLengths: function",
        "rowLimits: function",
        "rowSplits: function",
        "rowStarts: function",
        "sparse: function",
        "specFromJson: function",
        "specFromJsonText: function",
        "specFromStats: function",
        "specToJson: function",
        "specTypeScript: function",
        "specTypeScriptFromStats: function",
        "tfrecordDataset: function",
        "uniformRowLength: function",
        "valueRowIds: function",
        "varLen: function",
      ]
    `);
  });

  test('@tfpipe/dataset/ort', async () => {
    expect(await exportSurface(packageDirectory, './ort', datasetOrt)).toMatchInlineSnapshot(`
      [
        "AdapterBatch: type",
        "ToOrtFeedsOptions: type",
        "toOrtFeeds: function",
      ]
    `);
  });

  test('@tfpipe/dataset/tfjs', async () => {
    expect(await exportSurface(packageDirectory, './tfjs', datasetTfjs)).toMatchInlineSnapshot(`
      [
        "AdapterBatch: type",
        "TfjsBatch: type",
        "ToTfjsOptions: type",
        "toTfjs: function",
      ]
    `);
  });

  test('the main entry and its chunks import neither sharp, onnxruntime nor TensorFlow.js', async () => {
    const seen = new Set<string>();
    const pending = ['index.js'];
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const code = await readFile(new URL(`../dist/${file}`, import.meta.url), 'utf8');
      expect(code).not.toMatch(/['"](sharp|onnxruntime-[a-z]+|@tensorflow\/[a-z-]+)['"]/);
      for (const match of code.matchAll(/from\s*['"]\.\/([\w-]+\.js)['"]/g)) pending.push(match[1]!);
    }
    expect(seen.size).toBeGreaterThan(1);
  });
});

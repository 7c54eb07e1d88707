import { TfpipeError } from '@tfpipe/core';
import type { Dtype } from '../spec/dtype.js';
import { tfTypeName, wireKindOf } from '../spec/dtype.js';
import type { WireKind } from '../spec/dtype.js';
import { KIND_BYTES, KIND_FLOAT, KIND_INT64 } from '../wire/feature-locator.js';
import type { FeatureLocator } from '../wire/feature-locator.js';
import type { Tensor } from '../tensor.js';

/** One output tensor being filled, Example by Example, from the located features of a batch. */
export interface Column {
  /** Starts a batch of `batchSize` Examples. */
  start(batchSize: number): void;
  /** Reads Example `exampleIndex` (of the batch) from the features `locator` just located. */
  read(locator: FeatureLocator, exampleIndex: number): void;
  /** The batch's tensor. */
  finish(): Tensor;
}

const KINDS: readonly (WireKind | undefined)[] = [undefined, 'bytes', 'float', 'int64'];

/** The Feature oneof field number holding values of `dtype`. */
export function kindNumberOf(dtype: Dtype): number {
  const kind = wireKindOf(dtype);
  return kind === 'bytes' ? KIND_BYTES : kind === 'float' ? KIND_FLOAT : KIND_INT64;
}

/** TensorFlow's name of a kind number's dtype (`'int64'`, `'float'`, `'string'`). */
export function kindTypeName(kind: number): string {
  return tfTypeName(KINDS[kind] ?? 'bytes');
}

/** TensorFlow's `TensorShape::DebugString`: `[]`, `[3]`, `[1,2,1]`. */
export function shapeText(shape: readonly number[]): string {
  return `[${shape.join(',')}]`;
}

function featureError(code: 'FEATURE_TYPE' | 'FEATURE_MISSING', key: string, detail: string): TfpipeError {
  return new TfpipeError(code, detail, { stage: 'parseExample', position: { field: key } });
}

/** TensorFlow's message for a FixedLen feature with no default that is missing or has no kind. */
export function requiredError(key: string, dtype: Dtype): TfpipeError {
  return featureError(
    'FEATURE_MISSING',
    key,
    `Feature: ${key} (data type: ${tfTypeName(wireKindOf(dtype))}) is required but could not be found.`,
  );
}

/** TensorFlow's message for a dense (FixedLen or sequence) feature of the wrong kind. */
export function denseKindError(key: string, exampleIndex: number, actual: number, dtype: Dtype): TfpipeError {
  return featureError(
    'FEATURE_TYPE',
    key,
    `Key: ${key}, Index: ${exampleIndex}.  Data types don't match. Data type: ${kindTypeName(actual)} but expected type: ${tfTypeName(wireKindOf(dtype))}`,
  );
}

/** TensorFlow's message for a sparse or ragged feature of the wrong kind. */
export function sparseKindError(
  key: string,
  exampleIndex: number,
  actual: number,
  dtype: Dtype,
): TfpipeError {
  return featureError(
    'FEATURE_TYPE',
    key,
    `Key: ${key}, Index: ${exampleIndex}.  Data types don't match. Expected type: ${tfTypeName(wireKindOf(dtype))}, Actual type: ${kindTypeName(actual)}`,
  );
}

/** TensorFlow's message for a FixedLen feature with the wrong number of values. */
export function countError(
  key: string,
  exampleIndex: number,
  kind: number,
  size: number,
  shape: readonly number[],
): TfpipeError {
  return featureError(
    'FEATURE_TYPE',
    key,
    `Key: ${key}, Index: ${exampleIndex}.  Number of ${KINDS[kind] ?? 'bytes'} values != expected.  Values size: ${size} but output shape: ${shapeText(shape)}`,
  );
}

/** TensorFlow's message for a sequence feature whose value count is not a whole number of steps. */
export function strideError(
  key: string,
  exampleIndex: number,
  kind: number,
  size: number,
  shape: readonly number[],
): TfpipeError {
  return featureError(
    'FEATURE_TYPE',
    key,
    `Key: ${key}, Index: ${exampleIndex}.  Number of ${KINDS[kind] ?? 'bytes'} values is not a multiple of stride length. Saw ${size} values but output shape is: ${shapeText(shape)}`,
  );
}

/** A shape or alignment problem of a sparse or ragged feature that TensorFlow reports in its own words. */
export function layoutError(key: string, exampleIndex: number, detail: string): TfpipeError {
  return featureError('FEATURE_TYPE', key, `Key: ${key}, Index: ${exampleIndex}.  ${detail}`);
}

/** TensorFlow's message for a step of a feature list of the wrong kind; its Index is the step. */
export function stepKindError(key: string, step: number, dtype: Dtype): TfpipeError {
  return featureError(
    'FEATURE_TYPE',
    key,
    `Feature list: ${key}, Index: ${step}.  Data types don't match. Expected type: ${tfTypeName(wireKindOf(dtype))}`,
  );
}

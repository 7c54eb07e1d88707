import {
  buildExamples,
  bytesList,
  decodeExample,
  decodeSequenceExample,
  floatList,
  int64List,
  isSequenceExample,
  mapRows,
  parseExamples,
  shuffleBuffer,
  TfpipeError,
  positionOf,
  type Example,
  type Feature,
  type FeatureStatsCollector,
  type PayloadType,
  type SequenceExample,
} from '@tfpipe/core';
import { isFeatureValue, markLending, STAGE_PASSES_RELEASE } from '@tfpipe/core/internal';
import { withPosition, type OpenedSource } from '@tfpipe/core/plugin';
import type { LoadedPipeline } from '../config/load-pipeline.js';
import type { externalShuffle } from './external-shuffle.js';

type Stage = TransformStream<unknown, unknown>;

/** A plain cell as a Feature: text and bytes → bytes, integers → int64, other numbers → float. */
function toFeature(value: unknown, field: string, row: object): Feature | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (isFeatureValue(value)) return value;
  const values = Array.isArray(value) ? (value as unknown[]) : [value];
  if (values.every((item) => typeof item === 'string' || item instanceof Uint8Array))
    return bytesList(values);
  if (
    values.every(
      (item) =>
        typeof item === 'bigint' ||
        typeof item === 'boolean' ||
        (typeof item === 'number' && Number.isSafeInteger(item)),
    )
  ) {
    return int64List(
      values.map((item) => (typeof item === 'boolean' ? (item ? 1 : 0) : (item as number | bigint))),
    );
  }
  if (values.every((item) => typeof item === 'number')) return floatList(values);
  throw new TfpipeError('FEATURE_TYPE', 'cannot make a feature of this value; give the pipeline a spec', {
    stage: 'rowsToExamples',
    position: { ...positionOf(row), field },
  });
}

/** Rows without a spec: every field becomes a feature (Features as they are, plain values by their type). */
function rowsToExamples(): Stage {
  return mapRows((row: Record<string, unknown>) => {
    const features: Record<string, Feature> = {};
    for (const [name, value] of Object.entries(row)) {
      const feature = toFeature(value, name, row);
      if (feature !== undefined) features[name] = feature;
    }
    const built: Example = { features };
    const position = positionOf(row);
    return position === undefined ? built : withPosition(built, position);
  });
}

/** Whether rows must be decoded from payloads: a transform, split or spec reads their fields. */
export function needsFields(loaded: LoadedPipeline): boolean {
  return loaded.transforms.length > 0 || loaded.split !== undefined || loaded.config.spec !== undefined;
}

/** Stages between the source and the split: payload decoding (if fields are read), then the transforms. */
export function rowStages(loaded: LoadedPipeline, payloadType: PayloadType): Stage[] {
  const stages: Stage[] = [];
  if (loaded.source.output === 'payloads' && needsFields(loaded)) {
    stages.push(parseExamples({ payloadType }));
  }
  for (const transform of loaded.transforms) stages.push(transform.create());
  return stages;
}

/** The rows → Examples stage of one branch: the spec, else the source's own, else field by field. */
export function exampleStage(loaded: LoadedPipeline, opened: OpenedSource<unknown>): Stage | undefined {
  const onError = loaded.context.onError;
  if (loaded.config.spec !== undefined) return buildExamples(loaded.config.spec as never, { onError });
  if ((opened.output ?? loaded.source.output) !== 'rows') return undefined;
  if (opened.toExamples !== undefined) return opened.toExamples();
  return rowsToExamples();
}

/**
 * Passes records through, adding each to `collector` (payloads are decoded for it). It reads only
 * lengths and keys (copied), so it is marked `STAGE_PASSES_RELEASE`: lent records stay lent through it.
 */
export function statsTap(collector: FeatureStatsCollector, payloadType: PayloadType): Stage {
  const add = (record: unknown): void => {
    if (record instanceof Uint8Array) {
      let decoded: Example | SequenceExample;
      try {
        decoded = payloadType === 'SequenceExample' ? decodeSequenceExample(record) : decodeExample(record);
      } catch (error) {
        // A record too large to decode (RECORD_TOO_LARGE) or malformed: say which one.
        throw TfpipeError.is(error) ? error.withPosition(positionOf(record) ?? {}) : error;
      }
      collector.add(decoded);
    } else collector.add(record as Example | SequenceExample);
  };
  const stage = new TransformStream<unknown, unknown>({
    transform(chunk, controller) {
      if (Array.isArray(chunk)) for (const record of chunk) add(record);
      else add(chunk);
      controller.enqueue(chunk);
    },
  });
  return markLending(stage, STAGE_PASSES_RELEASE);
}

/** Parses `"256M"`-style sizes (binary units) or passes a number through. */
export function parseSize(size: number | string): number {
  if (typeof size === 'number') return size;
  const match = /^(\d+)\s*([kmg])?i?b?$/i.exec(size.trim());
  const scale = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(match?.[2] ?? '').toLowerCase()] ?? 1;
  return Number(match?.[1] ?? Number.NaN) * scale;
}

/** The disk-backed full shuffle, imported only by a pipeline that asks for one. */
export async function fullShuffle(loaded: LoadedPipeline): Promise<typeof externalShuffle | undefined> {
  if (loaded.config.shuffle?.full !== true) return undefined;
  return (await import('./external-shuffle.js')).externalShuffle;
}

/**
 * The shuffle of one branch, if the pipeline shuffles; `external` is {@link fullShuffle}'s answer
 * (given when the pipeline asks for a full shuffle).
 */
export function shuffleStage(
  loaded: LoadedPipeline,
  external: typeof externalShuffle | undefined,
): Stage | undefined {
  const shuffle = loaded.config.shuffle;
  if (shuffle === undefined) return undefined;
  const seed = shuffle.seed ?? 0;
  if (shuffle.full === true) {
    if (external === undefined) throw new Error('shuffleStage: pass fullShuffle(loaded) for a full shuffle');
    return external({ seed, memoryBytes: parseSize(shuffle.memory ?? '256M') });
  }
  return shuffleBuffer({ size: shuffle.buffer ?? 10000, seed });
}

/** True when a record is a SequenceExample (for the sink's payload type). */
export { isSequenceExample };

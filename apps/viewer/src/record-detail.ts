import type { Feature, Features } from '@tfpipe/core';
import { decodePayload, payloadSummary } from './decode-payload.js';
import { detectionBoxes } from './detection-boxes.js';
import { valueText } from './feature-text.js';
import { imageType } from './image-sniff.js';
import { rawPixelShape } from './raw-pixels.js';
import type { FeatureView, ImageBytes, RecordDetail, RecordRow } from './worker-protocol.js';

/** Values of one feature sent to the page at most; the view says how many more there are. @default 10000 */
export const MAX_VALUES_SHOWN = 10_000;
/** Steps of one feature list sent to the page at most. @default 1000 */
export const MAX_STEPS_SHOWN = 1000;

/** A record's payload decoded and formatted for the record view. */
export function recordDetail(row: Omit<RecordRow, 'summary'>, bytes: Uint8Array): RecordDetail {
  const decoded = decodePayload(bytes);
  const { payload } = decoded;
  const base = { ...row, summary: payloadSummary(decoded), decodeError: decoded.decodeError };
  if (payload === undefined) {
    return {
      ...base,
      payloadType: undefined,
      features: [],
      featureLists: [],
      images: [],
      boxes: { boxes: [], warnings: [] },
    };
  }
  const features: Features = 'features' in payload ? payload.features : payload.context;
  return {
    ...base,
    payloadType: 'features' in payload ? 'Example' : 'SequenceExample',
    features: Object.entries(features).map(([key, feature]) => featureView(key, feature)),
    featureLists:
      'features' in payload
        ? []
        : Object.entries(payload.featureLists).map(([key, steps]) => ({
            key,
            steps: steps.slice(0, MAX_STEPS_SHOWN).map((step, index) => featureView(String(index), step)),
          })),
    images: images(features),
    boxes: detectionBoxes(features),
  };
}

function featureView(key: string, feature: Feature): FeatureView {
  const shown = Math.min(feature.value.length, MAX_VALUES_SHOWN);
  const values: string[] = [];
  for (let index = 0; index < shown; index++) values.push(valueText(feature, index));
  return { key, kind: feature.kind, count: feature.value.length, values };
}

function images(features: Features): ImageBytes[] {
  return Object.entries(features).flatMap(([key, feature]) =>
    feature.kind === 'bytes'
      ? feature.value.flatMap((bytes, index) => {
          const type = imageType(bytes);
          if (type !== undefined) return [{ key, index, type, bytes }];
          const pixels = rawPixelShape(features, key, bytes.length);
          return pixels === undefined ? [] : [{ key, index, type: 'raw', bytes, pixels }];
        })
      : [],
  );
}

import { describe, expect, test } from 'vitest';
import { tfProto } from './tf-proto.js';
import {
  BYTES_LIST_TAG,
  ENTRY_KEY_TAG,
  ENTRY_VALUE_TAG,
  EXAMPLE_FEATURES_TAG,
  FEATURE_LIST_FEATURE_TAG,
  FLOAT_LIST_TAG,
  INT64_LIST_TAG,
  LIST_VALUE_TAG,
  MAP_ENTRY_TAG,
  SEQUENCE_FEATURE_LISTS_TAG,
} from './wire-tags.js';

/** The length-delimited tag of `field` of `message`, from the protobufjs schema (feature.proto's field numbers). */
function tagOf(message: keyof ReturnType<typeof tfProto>, field: string): number {
  const type = tfProto()[message] as { fields: Record<string, { id: number }> };
  return (type.fields[field]!.id << 3) | 2;
}

describe('wire tags', () => {
  test('are the length-delimited tags of the tf.train fields they name', () => {
    expect(EXAMPLE_FEATURES_TAG).toBe(tagOf('Example', 'features'));
    expect(EXAMPLE_FEATURES_TAG).toBe(tagOf('SequenceExample', 'context'));
    expect(SEQUENCE_FEATURE_LISTS_TAG).toBe(tagOf('SequenceExample', 'featureLists'));
    expect(MAP_ENTRY_TAG).toBe(tagOf('Features', 'feature'));
    expect(MAP_ENTRY_TAG).toBe(tagOf('FeatureLists', 'featureList'));
    expect(BYTES_LIST_TAG).toBe(tagOf('Feature', 'bytesList'));
    expect(FLOAT_LIST_TAG).toBe(tagOf('Feature', 'floatList'));
    expect(INT64_LIST_TAG).toBe(tagOf('Feature', 'int64List'));
    expect(LIST_VALUE_TAG).toBe(tagOf('BytesList', 'value'));
    expect(LIST_VALUE_TAG).toBe(tagOf('FloatList', 'value'));
    expect(LIST_VALUE_TAG).toBe(tagOf('Int64List', 'value'));
    expect(FEATURE_LIST_FEATURE_TAG).toBe(tagOf('FeatureList', 'feature'));
    // A protobuf map entry is a message with its key as field 1 and its value as field 2.
    expect([ENTRY_KEY_TAG, ENTRY_VALUE_TAG]).toEqual([(1 << 3) | 2, (2 << 3) | 2]);
  });
});

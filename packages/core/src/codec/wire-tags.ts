/**
 * Protobuf wire tags (field number << 3 | wire type) of the tf.train messages, for every encoder
 * that writes them by hand: the Example encoder, the row encoder and its generated code. Every field
 * written here is length-delimited (wire type 2). Internal to core.
 */

// Plain literals, not computed: the encoders' loops read them per value, and the generated row
// encoder pastes them into its source.

/** `Example.features` (1); also `SequenceExample.context`. */
export const EXAMPLE_FEATURES_TAG = 0x0a;
/** `SequenceExample.feature_lists` (2). */
export const SEQUENCE_FEATURE_LISTS_TAG = 0x12;
/** A map entry of `Features.feature` or `FeatureLists.feature_list` (field 1 of each). */
export const MAP_ENTRY_TAG = 0x0a;
/** A map entry's key (1). */
export const ENTRY_KEY_TAG = 0x0a;
/** A map entry's value (2). */
export const ENTRY_VALUE_TAG = 0x12;
/** `Feature.bytes_list` (1). */
export const BYTES_LIST_TAG = 0x0a;
/** `Feature.float_list` (2). */
export const FLOAT_LIST_TAG = 0x12;
/** `Feature.int64_list` (3). */
export const INT64_LIST_TAG = 0x1a;
/** `BytesList.value`, `FloatList.value` and `Int64List.value` (1; the numeric ones packed). */
export const LIST_VALUE_TAG = 0x0a;
/** `FeatureList.feature` (1). */
export const FEATURE_LIST_FEATURE_TAG = 0x0a;

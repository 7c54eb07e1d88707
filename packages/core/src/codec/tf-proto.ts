import protobuf from 'protobufjs/light.js';

/**
 * The `tf.train` messages of tensorflow/core/example/feature.proto and example.proto as a protobufjs
 * JSON descriptor. Field names are protobufjs's camelCase (also the proto3 JSON names); both
 * repeated scalars are declared `[packed = true]` as in feature.proto.
 */
const TF_TRAIN_DESCRIPTOR = {
  nested: {
    tensorflow: {
      nested: {
        BytesList: { fields: { value: { rule: 'repeated', type: 'bytes', id: 1 } } },
        FloatList: {
          fields: { value: { rule: 'repeated', type: 'float', id: 1, options: { packed: true } } },
        },
        Int64List: {
          fields: { value: { rule: 'repeated', type: 'int64', id: 1, options: { packed: true } } },
        },
        Feature: {
          oneofs: { kind: { oneof: ['bytesList', 'floatList', 'int64List'] } },
          fields: {
            bytesList: { type: 'BytesList', id: 1 },
            floatList: { type: 'FloatList', id: 2 },
            int64List: { type: 'Int64List', id: 3 },
          },
        },
        Features: { fields: { feature: { keyType: 'string', type: 'Feature', id: 1 } } },
        FeatureList: { fields: { feature: { rule: 'repeated', type: 'Feature', id: 1 } } },
        FeatureLists: { fields: { featureList: { keyType: 'string', type: 'FeatureList', id: 1 } } },
        Example: { fields: { features: { type: 'Features', id: 1 } } },
        SequenceExample: {
          fields: {
            context: { type: 'Features', id: 1 },
            featureLists: { type: 'FeatureLists', id: 2 },
          },
        },
      },
    },
  },
};

/** The `tf.train` message types, as protobufjs reflection types. */
export interface TfProto {
  /** The protobufjs root holding the `tensorflow` package. */
  readonly root: protobuf.Root;
  /** `tensorflow.Example`. */
  readonly Example: protobuf.Type;
  /** `tensorflow.SequenceExample`. */
  readonly SequenceExample: protobuf.Type;
  /** `tensorflow.Features`. */
  readonly Features: protobuf.Type;
  /** `tensorflow.Feature`. */
  readonly Feature: protobuf.Type;
  /** `tensorflow.FeatureList`. */
  readonly FeatureList: protobuf.Type;
  /** `tensorflow.FeatureLists`. */
  readonly FeatureLists: protobuf.Type;
  /** `tensorflow.BytesList`. */
  readonly BytesList: protobuf.Type;
  /** `tensorflow.FloatList`. */
  readonly FloatList: protobuf.Type;
  /** `tensorflow.Int64List`. */
  readonly Int64List: protobuf.Type;
}

let cached: TfProto | undefined;

/**
 * The reference implementation: the `tf.train` schema built in code with protobufjs's reflection API
 * (`Root.fromJSON`, no `.proto` file loaded at runtime). tfpipe's own codec does not use it; it is
 * here for tests, interop and users who want protobufjs messages.
 *
 * Built lazily on first call. Note that protobufjs generates its encode/decode functions with
 * `new Function` on first use, which a strict Content-Security-Policy (no `'unsafe-eval'`) or an
 * edge runtime that forbids code generation rejects; building the schema itself needs no eval.
 * tfpipe's hand-written codec (`encodeExample`, `decodeExample` …) needs no eval anywhere.
 */
export function tfProto(): TfProto {
  if (cached !== undefined) return cached;
  const root = protobuf.Root.fromJSON(TF_TRAIN_DESCRIPTOR);
  const type = (name: string): protobuf.Type => root.lookupType(`tensorflow.${name}`);
  cached = {
    root,
    Example: type('Example'),
    SequenceExample: type('SequenceExample'),
    Features: type('Features'),
    Feature: type('Feature'),
    FeatureList: type('FeatureList'),
    FeatureLists: type('FeatureLists'),
    BytesList: type('BytesList'),
    FloatList: type('FloatList'),
    Int64List: type('Int64List'),
  };
  return cached;
}

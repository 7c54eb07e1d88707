/**
 * @module @tfpipe/core/protobuf
 * The `tf.train` messages as protobufjs reflection types (`tfProto`), for interop with code that
 * speaks protobufjs and as the reference tfpipe's codec is tested against. An entry of its own so
 * that `@tfpipe/core`, which needs no protobufjs, does not load it.
 */
export { tfProto } from './codec/tf-proto.js';
export type { TfProto } from './codec/tf-proto.js';

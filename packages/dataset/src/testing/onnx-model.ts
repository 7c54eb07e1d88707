// Test helper (not exported): a small ONNX model written with protobufjs from the field numbers of
// onnx/onnx.proto (the subset a graph of plain operators needs), so onnxruntime-node can run it.
import protobuf from 'protobufjs';

const ONNX_SUBSET = `
syntax = "proto2";
package onnx;
message AttributeProto { optional string name = 1; optional int64 i = 3; optional int32 type = 20; }
message NodeProto {
  repeated string input = 1; repeated string output = 2; optional string name = 3;
  optional string op_type = 4; repeated AttributeProto attribute = 5;
}
message TensorShapeProto {
  message Dimension { optional int64 dim_value = 1; optional string dim_param = 2; }
  repeated Dimension dim = 1;
}
message TypeProto {
  message Tensor { optional int32 elem_type = 1; optional TensorShapeProto shape = 2; }
  optional Tensor tensor_type = 1;
}
message ValueInfoProto { optional string name = 1; optional TypeProto type = 2; }
message GraphProto {
  repeated NodeProto node = 1; optional string name = 2;
  repeated ValueInfoProto input = 11; repeated ValueInfoProto output = 12;
}
message OperatorSetIdProto { optional string domain = 1; optional int64 version = 2; }
message ModelProto {
  optional int64 ir_version = 1; optional string producer_name = 2;
  optional GraphProto graph = 7; repeated OperatorSetIdProto opset_import = 8;
}
`;

/** TensorProto.DataType values. */
export const ONNX_TYPE = { float: 1, uint8: 2, int32: 6, int64: 7, string: 8, double: 11 } as const;

/** A graph input or output: a name, an element type and dims (a string is a symbolic dimension). */
export interface OnnxValue {
  readonly name: string;
  readonly type: number;
  readonly dims: readonly (number | string)[];
}

/** A node: operator, inputs, outputs and integer attributes. */
export interface OnnxNode {
  readonly op: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly ints?: Readonly<Record<string, number>>;
}

function valueInfo(value: OnnxValue): object {
  return {
    name: value.name,
    type: {
      tensorType: {
        elemType: value.type,
        shape: {
          dim: value.dims.map((dim) => (typeof dim === 'string' ? { dimParam: dim } : { dimValue: dim })),
        },
      },
    },
  };
}

/** The serialized ModelProto (IR version 7, default opset 13) of one graph. */
export function onnxModel(
  nodes: readonly OnnxNode[],
  inputs: readonly OnnxValue[],
  outputs: readonly OnnxValue[],
): Uint8Array {
  const root = protobuf.parse(ONNX_SUBSET).root;
  const Model = root.lookupType('onnx.ModelProto');
  const message = Model.fromObject({
    irVersion: 7,
    producerName: 'tfpipe-test',
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: 'test',
      node: nodes.map((node, index) => ({
        name: `node${index}`,
        opType: node.op,
        input: node.inputs,
        output: node.outputs,
        attribute: Object.entries(node.ints ?? {}).map(([name, value]) => ({ name, i: value, type: 2 })),
      })),
      input: inputs.map(valueInfo),
      output: outputs.map(valueInfo),
    },
  });
  return Model.encode(message).finish();
}

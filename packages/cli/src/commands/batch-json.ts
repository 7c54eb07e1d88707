import type { Tensor } from '@tfpipe/dataset';
import { base64, floatJson } from './value-text.js';

function valuesJson(tensor: Tensor): string {
  const parts: string[] = [];
  const data = tensor.data as ArrayLike<unknown>;
  for (let index = 0; index < data.length; index++) {
    const value = data[index];
    if (typeof value === 'bigint') parts.push(`"${value}"`);
    else if (value instanceof Uint8Array) parts.push(`"${base64(value)}"`);
    else parts.push(floatJson(value as number, tensor.dtype === 'float32'));
  }
  return `[${parts.join(',')}]`;
}

function tensorJson(tensor: Tensor): string {
  const fields = [
    `"kind":"${tensor.kind}"`,
    `"dtype":"${tensor.dtype}"`,
    `"shape":${JSON.stringify(tensor.shape)}`,
  ];
  if (tensor.kind === 'sparse') {
    fields.push(`"denseShape":${JSON.stringify(tensor.denseShape)}`);
    fields.push(`"indices":[${Array.from(tensor.indices, String).join(',')}]`);
  } else if (tensor.kind === 'ragged') {
    fields.push(`"rowSplits":[${tensor.rowSplits.map((splits) => `[${splits.join(',')}]`).join(',')}]`);
  }
  fields.push(`"data":${valuesJson(tensor)}`);
  return `{${fields.join(',')}}`;
}

/**
 * One parsed batch as one JSON object: each output's `kind`, `dtype`, `shape` (and `denseShape` +
 * `indices`, or `rowSplits`) and `data`, int64 values as exact decimal strings and bytes as base64,
 * as protobuf's JSON form of an Example writes them.
 */
export function batchJson(batch: Readonly<Record<string, Tensor>>): string {
  return `{${Object.entries(batch)
    .map(([name, tensor]) => `${JSON.stringify(name)}:${tensorJson(tensor)}`)
    .join(',')}}`;
}

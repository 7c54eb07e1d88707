import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import type { Feature } from '../model/feature.js';
import { plainFeatures } from './codec-test-helpers.js';
import { decodeExample, decodeSequenceExample } from './decode-example.js';
import { encodeExample, encodeSequenceExample } from './encode-example.js';
import { tfProto } from './tf-proto.js';
import { TFRECORD_CORPUS } from '../../../../test-support/corpus.js';

const corpus = TFRECORD_CORPUS;

/** A minimal TFRecord framing reader for this test only (u64 length, u32 crc, data, u32 crc; CRCs not checked). */
function records(file: string): Uint8Array[] {
  let data: Uint8Array = readFileSync(path.join(corpus, file));
  if (file.endsWith('.gz')) data = gunzipSync(data);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const output: Uint8Array[] = [];
  for (let offset = 0; offset < data.length;) {
    const length = Number(view.getBigUint64(offset, true));
    output.push(data.subarray(offset + 12, offset + 12 + length));
    offset += 16 + length;
  }
  return output;
}

const hex = (data: Uint8Array): string => Buffer.from(data).toString('hex');

function countKindless(features: Readonly<Record<string, Feature>>): number {
  return Object.values(features).filter((feature) => feature.kind === 'none').length;
}

describe.each([
  ['tfx_penguin_train.tfrecord.gz', 234],
  ['tfx_taxi_csvgen_eval_00000.tfrecord.gz', 424],
  ['tfx_mnist_floats.tfrecord', 1000],
  ['raccoon_test_jpeg.record', 40],
  ['pwnall_singles.tfrecords', 3],
])('Examples written by TensorFlow: %s', (file, count) => {
  const payloads = records(file);

  test(`decodes all ${count} records like protobufjs, and re-encodes to the same content`, () => {
    const { Example } = tfProto();
    expect(payloads).toHaveLength(count);
    let sameBytes = 0;
    let kindless = 0;
    for (const payload of payloads) {
      const ours = decodeExample(payload);
      const theirs = Example.toObject(Example.decode(payload), { longs: String, bytes: String });
      expect(plainFeatures(ours.features)).toEqual(theirs.features ?? {});
      const again = encodeExample(ours);
      expect(plainFeatures(decodeExample(again).features)).toEqual(plainFeatures(ours.features));
      if (hex(again) === hex(payload)) sameBytes++;
      kindless += countKindless(ours.features);
    }
    // TensorFlow's C++ serializer writes map entries in hash order, so byte identity is not expected;
    // the count is printed for the record.
    console.info(
      `${file}: ${sameBytes}/${count} records re-encode to identical bytes; ${kindless} kindless features`,
    );
    if (file.startsWith('tfx_taxi')) expect(kindless).toBe(715);
  });
});

test('SequenceExamples written by TFX: tfx_external_tfrecord_sequence.tfrecord.gz', () => {
  const { SequenceExample } = tfProto();
  const payloads = records('tfx_external_tfrecord_sequence.tfrecord.gz');
  expect(payloads).toHaveLength(15000);
  let sameBytes = 0;
  for (const [index, payload] of payloads.entries()) {
    const ours = decodeSequenceExample(payload);
    if (index % 25 === 0) {
      const theirs = SequenceExample.toObject(SequenceExample.decode(payload), {
        longs: String,
        bytes: String,
        arrays: true,
      });
      expect(plainFeatures(ours.context)).toEqual(theirs.context ?? {});
      const lists = (theirs.featureLists?.featureList ?? {}) as Record<string, { feature: unknown[] }>;
      for (const [key, features] of Object.entries(ours.featureLists)) {
        expect(
          plainFeatures(Object.fromEntries(features.map((feature, position) => [String(position), feature]))),
        ).toEqual(
          plainFeatures(
            Object.fromEntries(
              (lists[key]?.feature ?? []).map((feature, position) => [
                String(position),
                decodeFeatureObject(feature),
              ]),
            ),
          ),
        );
      }
    }
    if (hex(encodeSequenceExample(ours)) === hex(payload)) sameBytes++;
  }
  console.info(`tfx_external_tfrecord_sequence: ${sameBytes}/15000 records re-encode to identical bytes`);
  expect(sameBytes).toBeGreaterThan(0);
});

/** protobufjs's plain Feature object back into our model, to compare through plainFeatures. */
function decodeFeatureObject(feature: unknown): Feature {
  const plain = feature as {
    bytesList?: { value?: string[] };
    floatList?: { value?: number[] };
    int64List?: { value?: string[] };
  };
  if (plain.bytesList)
    return {
      kind: 'bytes',
      value: (plain.bytesList.value ?? []).map((value) => Buffer.from(value, 'base64')),
    };
  if (plain.floatList) return { kind: 'float', value: plain.floatList.value ?? [] };
  if (plain.int64List) return { kind: 'int64', value: (plain.int64List.value ?? []).map(BigInt) };
  return { kind: 'none', value: [] };
}

test('decodes from a Node.js Buffer view at an offset (pooled memory) without aliasing it', () => {
  const payload = records('tfx_mnist_floats.tfrecord')[0] as Uint8Array;
  const pooled = Buffer.alloc(payload.length + 3);
  pooled.set(payload, 3);
  const decoded = decodeExample(pooled.subarray(3));
  expect(hex(encodeExample(decoded))).toBe(hex(encodeExample(decodeExample(payload))));
  pooled.fill(0);
  expect(hex(encodeExample(decoded))).toBe(hex(encodeExample(decodeExample(payload))));
});

// Values whose CRC-32C a source knew (core's withCrc32c): the sink frames them without reading them.
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bytes, example, float, int64, type Example, type Feature } from '@tfpipe/core';
import { withCrc32c } from '@tfpipe/core/internal';
import { describe, expect, it } from 'vitest';
import { random, tempDir, writeAll } from './__fixtures__/helpers.js';
import { unmaskCrc } from './crc32c.js';
import { tfrecordSink } from './tfrecord-sink.js';

const nativeCrc32c = (
  createRequire(import.meta.url)('@node-rs/crc32') as { crc32c: (input: Uint8Array) => number }
).crc32c;

function noise(size: number, seed: number): Uint8Array {
  const next = random(seed);
  return Uint8Array.from({ length: size }, () => Math.floor(next() * 256));
}

/** Records with large values (some with two, some with none known), small ones and raw payloads between. */
function records(known: (data: Uint8Array) => number): (Example | Uint8Array)[] {
  const out: (Example | Uint8Array)[] = [];
  for (let index = 0; index < 8; index++) {
    const image = noise(20_000 + index * 13_001, index + 1);
    const mask = noise(17_000 + index * 7, index + 50);
    const features: Record<string, Feature> = {
      'image/encoded': bytes(withCrc32c(image, known(image))),
      'image/filename': bytes(`${index}.jpg`),
      'image/height': int64(index),
      score: float(index / 3),
    };
    if (index % 2 === 0) features['image/mask'] = bytes(withCrc32c(mask, known(mask)));
    if (index % 3 === 0) features['image/unknown'] = bytes(noise(30_000, index + 90));
    out.push(example(features));
    if (index % 4 === 1) out.push(noise(25_000, index + 200));
    if (index % 4 === 2) out.push(example({ small: bytes('x'.repeat(index * 100)) }));
  }
  return out;
}

/** Each frame's data CRC as the file holds it (unmasked), and the native CRC of its payload. */
async function frameCrcs(path: string): Promise<{ stored: number; actual: number }[]> {
  const file = await readFile(path);
  const view = new DataView(file.buffer, file.byteOffset, file.length);
  const frames: { stored: number; actual: number }[] = [];
  for (let offset = 0; offset < file.length;) {
    const length = Number(view.getBigUint64(offset, true));
    const payload = file.subarray(offset + 12, offset + 12 + length);
    frames.push({
      stored: unmaskCrc(view.getUint32(offset + 12 + length, true)),
      actual: nativeCrc32c(payload),
    });
    offset += 16 + length;
  }
  return frames;
}

describe('tfrecordSink with known CRCs', () => {
  it('writes the same file as without them, every frame checked against the native CRC', async () => {
    const directory = await tempDir();
    for (const bufferBytes of [4 * 1024 * 1024, 64 * 1024]) {
      const knowing = join(directory, `known-${bufferBytes}.tfrecord`);
      await writeAll(
        tfrecordSink({ path: knowing, bufferBytes }),
        records((data) => nativeCrc32c(data)),
      );
      const plain = join(directory, `plain-${bufferBytes}.tfrecord`);
      await writeAll(tfrecordSink({ path: plain, bufferBytes }), records(() => 0).map(dropKnown));
      expect((await readFile(knowing)).equals(await readFile(plain))).toBe(true);
      const frames = await frameCrcs(knowing);
      expect(frames.length).toBe(records(() => 0).length);
      for (const frame of frames) expect(frame.stored).toBe(frame.actual);
    }
  });

  it('takes a known CRC as given: the bytes are not read again (a wrong one shows in the file)', async () => {
    const directory = await tempDir();
    const path = join(directory, 'wrong.tfrecord');
    const image = noise(50_000, 7);
    await writeAll(tfrecordSink({ path }), [
      example({ 'image/encoded': bytes(withCrc32c(image, nativeCrc32c(image) ^ 1)) }),
    ]);
    const [frame] = await frameCrcs(path);
    expect(frame!.stored).not.toBe(frame!.actual);
  });
});

/** The same records with fresh copies of every value, so that no CRC is known. */
function dropKnown(record: Example | Uint8Array): Example | Uint8Array {
  if (record instanceof Uint8Array) return record;
  const features: Record<string, Feature> = {};
  for (const [name, feature] of Object.entries(record.features)) {
    features[name] =
      feature.kind === 'bytes' ? bytes(...feature.value.map((value) => value.slice())) : feature;
  }
  return example(features);
}

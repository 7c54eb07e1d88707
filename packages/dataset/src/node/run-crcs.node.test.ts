// The Node batch check of data CRCs (one native CRC per run of records, compared with what the stored
// CRCs imply) against a CRC-32C computed bit by bit here, independently of the package's tables.
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../pipeline/ops/seeded-random.js';
import { nodeSpanCrcs } from './run-crcs.js';

/** CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), one bit at a time. */
function bitwiseCrc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** TFRecord's mask (tsl/lib/hash/crc32c.h), written out here. */
function mask(crc: number): number {
  return (((crc >>> 15) | (crc << 17)) + 0xa282ead8) >>> 0;
}

/** A deterministic generator of numbers in [0, 1). */
function random(seed: number): () => number {
  const generator = new SeededRandom(seed);
  return () => generator.nextUint32() / 0x1_0000_0000;
}

interface Batch {
  bytes: Uint8Array;
  ends: Int32Array;
  crcs: Uint32Array;
}

/** Records of `lengths` back to back, with their stored (masked) CRCs. */
function batchOf(lengths: readonly number[], next: () => number): Batch {
  const total = lengths.reduce((sum, length) => sum + length, 0);
  const bytes = Uint8Array.from({ length: total }, () => Math.floor(next() * 256));
  const ends = new Int32Array(lengths.length);
  const crcs = new Uint32Array(lengths.length);
  let start = 0;
  lengths.forEach((length, index) => {
    ends[index] = start + length;
    crcs[index] = mask(bitwiseCrc32c(bytes.subarray(start, start + length)));
    start += length;
  });
  return { bytes, ends, crcs };
}

/** The first record whose own CRC does not match its stored one, computed record by record here. */
function firstBad({ bytes, ends, crcs }: Batch): number {
  let start = 0;
  for (let index = 0; index < ends.length; index++) {
    if (mask(bitwiseCrc32c(bytes.subarray(start, ends[index]))) !== crcs[index]) return index;
    start = ends[index]!;
  }
  return -1;
}

const checks = { native: nodeSpanCrcs(), 'JavaScript only': nodeSpanCrcs(null) };

describe.each(Object.entries(checks))('nodeSpanCrcs (%s)', (_, check) => {
  const run = (batch: Batch) => check(batch.bytes, batch.ends, batch.ends.length, batch.crcs);

  it('passes intact records of every length class: empty, short, the longest in a run, long', () => {
    const next = random(1);
    const lengths = [0, 1, 7, 410, 4095, 4096, 0, 4097, 65_536, 3, 2 ** 11, 2 ** 12 - 1, 12_345, 0];
    expect(run(batchOf(lengths, next))).toBe(-1);
    expect(run(batchOf([], next))).toBe(-1);
    expect(run(batchOf([0], next))).toBe(-1);
    expect(run(batchOf([100_000], next))).toBe(-1);
  });

  it('names the first damaged record, as a check record by record does', () => {
    const next = random(2);
    for (let round = 0; round < 300; round++) {
      const count = 1 + Math.floor(next() * 40);
      const lengths = Array.from({ length: count }, () =>
        next() < 0.1 ? 4096 + Math.floor(next() * 9000) : Math.floor(next() * 900),
      );
      const batch = batchOf(lengths, next);
      const damages = 1 + Math.floor(next() * 3);
      for (let damage = 0; damage < damages; damage++) {
        const record = Math.floor(next() * count);
        const start = record === 0 ? 0 : batch.ends[record - 1]!;
        const length = batch.ends[record]! - start;
        // A payload bit, or the stored CRC itself.
        if (length > 0 && next() < 0.7)
          batch.bytes[start + Math.floor(next() * length)]! ^= 1 << Math.floor(next() * 8);
        else batch.crcs[record]! ^= 1 << Math.floor(next() * 32);
      }
      const expected = firstBad(batch);
      expect(expected).toBeGreaterThanOrEqual(0);
      expect(run(batch)).toBe(expected);
    }
  });

  it('catches two damages that a plain xor of the records would cancel', () => {
    const next = random(3);
    const batch = batchOf([64, 64, 64], next);
    // The same bit flipped in two records of the same length: their CRC changes are equal.
    batch.bytes[10]! ^= 1;
    batch.bytes[64 + 10]! ^= 1;
    expect(run(batch)).toBe(0);
  });
});

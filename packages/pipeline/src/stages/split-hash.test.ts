import { describe, expect, it } from 'vitest';
import { splitAssigner } from './assign-split.js';
import { fmix64, fnv1a64, hashFraction } from './split-hash.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

/** The textbook definition in BigInt, independent of the limb arithmetic under test. */
function referenceFnv1a64(bytes: Uint8Array): bigint {
  let hash = 0xcbf29ce484222325n;
  for (const byte of bytes) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
  return hash;
}

/** MurmurHash3 fmix64, as in Appleby's reference code (smhasher MurmurHash3.cpp). */
function referenceFmix64(k: bigint): bigint {
  k ^= k >> 33n;
  k = BigInt.asUintN(64, k * 0xff51afd7ed558ccdn);
  k ^= k >> 33n;
  k = BigInt.asUintN(64, k * 0xc4ceb9fe1a85ec53n);
  return k ^ (k >> 33n);
}

describe('fnv1a64', () => {
  it('matches the published FNV-1a 64 test vectors', () => {
    expect(fnv1a64(utf8(''))).toBe(0xcbf29ce484222325n);
    expect(fnv1a64(utf8('a'))).toBe(0xaf63dc4c8601ec8cn);
    expect(fnv1a64(utf8('foobar'))).toBe(0x85944171f73967e8n);
  });

  it('agrees with a BigInt reference on random byte strings', () => {
    for (let length = 0; length < 200; length++) {
      const bytes = Uint8Array.from({ length }, (_, index) => (index * 131 + length * 7) & 0xff);
      expect(fnv1a64(bytes)).toBe(referenceFnv1a64(bytes));
      expect(hashFraction(bytes)).toBe(Number(referenceFmix64(referenceFnv1a64(bytes)) >> 11n) / 2 ** 53);
    }
  });
});

describe('splitAssigner', () => {
  const ratios = { train: 0.8, validation: 0.1, test: 0.1 };

  it('assigns by key independently of row order and close to the ratios', () => {
    const rows = Array.from({ length: 5000 }, (_, index) => ({ id: String(index) }));
    const forward = splitAssigner({ key: 'id', ratios });
    const backward = splitAssigner({ key: 'id', ratios });
    const first = new Map(rows.map((row, index) => [row.id, forward.assign(row, index)]));
    const reversed = [...rows].reverse();
    reversed.forEach((row, index) => expect(backward.assign(row, index)).toBe(first.get(row.id)));
    const train = [...first.values()].filter((name) => name === 'train').length;
    expect(train / rows.length).toBeGreaterThan(0.77);
    expect(train / rows.length).toBeLessThan(0.83);
  });

  it('puts the CSV text "42", the number 42 and the int64 Feature 42 in the same split', () => {
    const assigner = splitAssigner({ key: 'id', ratios });
    const fromText = assigner.assign({ id: '42' }, 0);
    expect(assigner.assign({ id: 42 }, 1)).toBe(fromText);
    expect(assigner.assign({ id: { kind: 'int64', value: [42n] } }, 2)).toBe(fromText);
  });

  it('follows the documented hash: the first split whose cumulative ratio exceeds the fraction', () => {
    const assigner = splitAssigner({ key: 'id', ratios: { a: 0.5, b: 0.5 } });
    for (let index = 0; index < 200; index++) {
      const key = `key-${index}`;
      const fraction = Number(referenceFmix64(referenceFnv1a64(utf8(key))) >> 11n) / 2 ** 53;
      expect(assigner.assign({ id: key }, index)).toBe(fraction < 0.5 ? 'a' : 'b');
    }
    expect(fmix64(0n)).toBe(0n);
  });

  it('refuses ratios that do not sum to 1, before any row', () => {
    expect(() => splitAssigner({ key: 'id', ratios: { train: 0.8, test: 0.1 } })).toThrow(
      expect.objectContaining({ code: 'SPLIT', message: expect.stringContaining('sum to 1') }),
    );
  });

  it('names the row and field when the key is missing', () => {
    const assigner = splitAssigner({ key: 'id', ratios });
    expect(() => assigner.assign({ other: 1 }, 7)).toThrow(
      expect.objectContaining({ code: 'SPLIT', position: { row: 7, field: 'id' } }),
    );
  });

  it('splits by a column that names the split, refusing other values', () => {
    const assigner = splitAssigner({ column: 'fold', names: ['train', 'test'] });
    expect(assigner.assign({ fold: 'test' }, 0)).toBe('test');
    expect(() => assigner.assign({ fold: 'dev' }, 3)).toThrow(expect.objectContaining({ code: 'SPLIT' }));
  });
});

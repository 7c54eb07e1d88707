import { describe, expect, it } from 'vitest';
import { EncodedExample, ENCODED } from '../../codec/encoded-example.js';
import { encodeExample } from '../../codec/encode-example.js';
import { int64List } from '../../model/feature.js';
import { INT64 } from '../spec/row-cells.js';
import { generateRowWriter, type RowChunk } from './row-encoder-codegen.js';

const hex = (bytes: Uint8Array): string =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** The generated writer of one int64 feature `n` (missing cells omitted). */
function int64Writer(): ReturnType<typeof generateRowWriter> {
  const chunk: RowChunk = {
    bytes: new Uint8Array(0),
    view: new DataView(new ArrayBuffer(0)),
    used: 0,
    reserve(length) {
      this.bytes = new Uint8Array(Math.max(1024, length));
      this.view = new DataView(this.bytes.buffer);
      this.used = 0;
    },
  };
  // 0a 01 'n' 12: the map entry's key field and the value field's tag.
  const prefix = new Uint8Array([0x0a, 0x01, 0x6e, 0x12]);
  return generateRowWriter([{ kind: INT64, prefix, missing: 'omit', split: false }], [0], chunk);
}

describe('the generated row writer', () => {
  // Parquet's INT64 columns arrive as bigints: refused here, every row took the general encoder.
  it('writes a bigint int64 cell within the safe integers, with the bytes of the same number', () => {
    const writer = int64Writer()!;
    for (const value of [0n, 7n, -1n, 300n, 2n ** 53n - 1n, -(2n ** 53n) + 1n]) {
      const example = writer([value], undefined);
      expect(example, String(value)).toBeInstanceOf(EncodedExample);
      const expected = encodeExample({ features: { n: int64List([value]) } });
      expect(hex((example as EncodedExample)[ENCODED])).toBe(hex(expected));
      expect(hex(writer([Number(value)], undefined)![ENCODED])).toBe(hex(expected));
    }
  });

  it('refuses a bigint beyond the safe integers (the general encoder writes it exactly)', () => {
    const writer = int64Writer()!;
    for (const value of [2n ** 53n, -(2n ** 53n), 2n ** 63n - 1n, 2n ** 64n]) {
      expect(writer([value], undefined), String(value)).toBeUndefined();
    }
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytes, bytesList } from './feature.js';

// The reference is the platform's TextEncoder, which bytes() uses for anything but short ASCII strings.
const reference = new TextEncoder();

describe('bytes() of strings', () => {
  it('gives the UTF-8 bytes TextEncoder gives at the edges of the short-ASCII path', () => {
    const cases = [
      '',
      'a',
      '\u0000',
      '\u007f',
      '\u0080',
      'x'.repeat(63),
      'x'.repeat(64),
      'x'.repeat(65),
      `${'x'.repeat(63)}é`,
      `é${'x'.repeat(63)}`,
      'lone \ud800 surrogate',
      '\udfff',
      'a😀',
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    ];
    for (const text of cases)
      expect(bytes(text).value, JSON.stringify(text)).toEqual([reference.encode(text)]);
  });

  it('gives the UTF-8 bytes TextEncoder gives for any string, 0 to 200 characters', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 }))),
        (texts) => {
          expect(bytesList(texts).value).toEqual(texts.map((text) => reference.encode(text)));
        },
      ),
    );
  });

  it('returns a fresh array per string (no shared buffer between values)', () => {
    const [first, second] = bytes('abc', 'abc').value;
    expect(first).not.toBe(second);
    first![0] = 0;
    expect(second).toEqual(reference.encode('abc'));
  });
});

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { float32Loss, parseFloatText } from './csv-values.js';

/** Python's float() grammar the slow way (ASCII digits): a regex, then the spelled-out specials. */
function floatByPattern(text: string): number | undefined {
  const trimmed = text.trim();
  if (
    /^[+-]?(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+(?:_\d+)*)?$/.test(trimmed)
  )
    return Number(trimmed.replaceAll('_', ''));
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(trimmed);
  if (special === null) return undefined;
  if (special[2]!.toLowerCase() === 'nan') return Number.NaN;
  return special[1] === '-' ? -Infinity : Infinity;
}

/** parseFloatText's value, or undefined where it refuses the text. */
function parsed(text: string): number | undefined {
  try {
    return parseFloatText(text);
  } catch {
    return undefined;
  }
}

describe('parseFloatText', () => {
  test('Python float() spellings', () => {
    const cases: [string, number][] = [
      ['1.5', 1.5],
      ['.5', 0.5],
      ['5.', 5],
      ['-0', -0],
      ['1e3', 1000],
      ['-2.5E-3', -0.0025],
      ['+1.5', 1.5],
      [' 7 ', 7],
      ['1_000.5', 1000.5],
      ['inf', Infinity],
      ['-Infinity', -Infinity],
    ];
    for (const [text, value] of cases) expect(parsed(text), text).toBe(value);
    expect(parsed('NaN')).toBeNaN();
    for (const text of ['', '.', '-', 'e5', '1e', '1e+', '1.2.3', '--1', '1_', '0x10', '1 2']) {
      expect(parsed(text), text).toBeUndefined();
    }
  });

  test('the plain-cell shortcuts agree with the full rules on every text', () => {
    const text = fc
      .array(fc.constantFrom(...'0123456789.eE+-_ inftyaINFTYAN'.split('')), { maxLength: 12 })
      .map((characters) => characters.join(''));
    // Plain decimals as data files write them, which core's hand parser takes (up to 15 digits).
    const decimal = fc
      .tuple(
        fc.constantFrom('', '-', '+'),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 6n }),
        fc.option(fc.integer({ min: -40, max: 40 })),
      )
      .map(
        ([sign, whole, fraction, exponent]) =>
          `${sign}${whole}.${fraction}${exponent === null ? '' : `e${exponent}`}`,
      );
    fc.assert(
      fc.property(fc.oneof(text, decimal, fc.double().map(String)), (value) => {
        // The full rules, then the float32 rule parseFloatText applies to every path.
        const full = floatByPattern(value);
        const expected = full !== undefined && float32Loss(value, full) === undefined ? full : undefined;
        expect(Object.is(parsed(value), expected)).toBe(true);
      }),
      { seed: 5, numRuns: 20000 },
    );
  });
});

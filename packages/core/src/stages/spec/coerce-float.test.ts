import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CellContext } from './cell-context.js';
import { plainDecimal } from '../../text/plain-decimal.js';
import { floatValue } from './coerce-float.js';

const context: CellContext = { stage: 'buildExamples', feature: 'f', field: 'col', booleanStrings: false };

/** The float grammar written out the slow way: whitespace trimmed, a decimal regex, the special spellings. */
function reference(value: string): number | 'error' {
  const text = value.trim();
  const digits = String.raw`\d+(?:_\d+)*`;
  const decimal = new RegExp(
    String.raw`^[+-]?(?:${digits}(?:\.(?:${digits})?)?|\.${digits})(?:[eE][+-]?${digits})?$`,
  );
  if (decimal.test(text)) return Number(text.replaceAll('_', ''));
  const lower = text.toLowerCase();
  if (/^[+-]?nan$/.test(lower)) return Number.NaN;
  if (/^[+-]?inf(inity)?$/.test(lower)) return lower.startsWith('-') ? -Infinity : Infinity;
  return 'error';
}

function parsed(text: string): number | 'error' {
  try {
    return floatValue(text, context);
  } catch {
    return 'error';
  }
}

const digits = (max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: max });
const sign = fc.constantFrom('', '+', '-');
/** Decimal-looking strings: signs, digits either side of a point, exponents, and a few near misses. */
const decimalText = fc
  .tuple(
    fc.constantFrom('', ' ', '\t', '\u00a0'),
    sign,
    digits(20),
    fc.constantFrom('', '.', '..', ',', '_', '__', '_.', '._'),
    digits(20),
    fc.oneof(
      fc.constant(''),
      fc
        .tuple(fc.constantFrom('e', 'E', 'e+', 'e-', 'x'), fc.oneof(digits(2), digits(5)))
        .map((p) => p.join('')),
    ),
    fc.constantFrom('', ' ', '\n', '_', 'f'),
  )
  .map((parts) => parts.join(''));
const specialText = fc
  .tuple(
    sign,
    fc.constantFrom(
      'nan',
      'NaN',
      'inf',
      'INF',
      'Infinity',
      'infinity',
      'iNfInItY',
      'infinit',
      'nana',
      '0x10',
      '0b1',
      '0o7',
    ),
  )
  .map((parts) => parts.join(''));

describe('float strings', () => {
  it('plainDecimal gives the exact double Number() gives, or NaN to decline', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        const fast = plainDecimal(text);
        if (fast === fast) expect(Object.is(fast, Number(text))).toBe(true);
        // Every plain decimal of at most 15 digits must take the fast path.
        const plain = /^[+-]?\d*\.?\d*$/.exec(text);
        const count = text.replace(/[^0-9]/g, '').length;
        if (plain !== null && count > 0 && count <= 15) expect(fast === fast).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('plainDecimal is exact on random doubles printed with up to 15 digits', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer({ min: 0, max: 15 }),
        (value, places) => {
          const fixed = Math.abs(value) < 1e15 ? value.toFixed(places).slice(0, 17) : '1';
          for (const text of [fixed, value.toExponential(Math.min(places, 14))]) {
            const fast = plainDecimal(text);
            if (fast === fast) {
              expect(Object.is(fast, Number(text))).toBe(true);
              expect(Math.fround(fast)).toBe(Math.fround(Number(text)));
            }
          }
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('floatValue accepts exactly the slow grammar, with the same value', () => {
    fc.assert(
      fc.property(fc.oneof(decimalText, specialText, fc.string({ maxLength: 8 })), (text) => {
        const expected = reference(text);
        const actual = parsed(text);
        if (expected === 'error' || actual === 'error') expect(actual).toBe(expected);
        else expect(Object.is(Math.fround(actual), Math.fround(expected))).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('keeps signs, zeros and edge spellings', () => {
    expect(Object.is(floatValue('-0', context), -0)).toBe(true);
    expect(Object.is(floatValue('-0.000', context), -0)).toBe(true);
    expect(floatValue('+.5', context)).toBe(0.5);
    expect(floatValue('1.', context)).toBe(1);
    expect(floatValue(' 0.1 ', context)).toBe(0.1);
    expect(floatValue('123456789012345', context)).toBe(123456789012345);
    expect(floatValue('0.30000000000000004', context)).toBe(0.30000000000000004);
    expect(floatValue('1152921504606846976', context)).toBe(2 ** 60);
    expect(floatValue('1e22', context)).toBe(1e22);
    expect(floatValue('-1.5e-7', context)).toBe(-1.5e-7);
    expect(floatValue('123456789012345e-22', context)).toBe(123456789012345e-22);
    expect(floatValue('1e23', context)).toBe(1e23);
    expect(floatValue('1e-400', context)).toBe(0);
    expect(parsed('.')).toBe('error');
    expect(parsed('1e')).toBe('error');
    expect(parsed('1e+')).toBe('error');
    expect(parsed('+')).toBe('error');
    expect(parsed('1.2.3')).toBe('error');
  });
});

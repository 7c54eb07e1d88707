import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalFloat, decimalInteger } from './decimal-text.js';

// Numbers are generated from their parts, and the expected value is computed from a canonical
// spelling of those parts (`-12.5e3`), never from the text under test.
const sign = fc.constantFrom('', '+', '-');
const space = fc.constantFrom('', ' ', '  ', '\t', '\n', '\r\n', '\u00a0');
const digitRun = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 8 });
/** Digits written with or without `_` between runs: `[digits, spelling]`. */
const digits = fc
  .tuple(fc.array(digitRun, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([runs, separated]) => [runs.join(''), runs.join(separated ? '_' : '')] as const);

const integerText = fc
  .tuple(space, sign, digits, space)
  .map(([before, signText, [plain, written], after]) => {
    const canonical = `${signText === '-' ? '-' : ''}${plain}`;
    return { text: `${before}${signText}${written}${after}`, value: BigInt(canonical), canonical };
  });

/** A whole part, a point, a fraction (at least one of the two digit runs) and an exponent. */
const floatText = fc
  .tuple(
    space,
    sign,
    fc.option(digits),
    fc.constantFrom('.', ''),
    fc.option(digits),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), sign, digits)),
    space,
  )
  .filter(([, , whole, point, fraction]) =>
    point === '.' ? whole !== null || fraction !== null : whole !== null && fraction === null,
  )
  .map(([before, signText, whole, point, fraction, exponent, after]) => {
    const exponentText = exponent === null ? '' : `${exponent[0]}${exponent[1]}${exponent[2][1]}`;
    const written = `${signText}${whole?.[1] ?? ''}${point}${fraction?.[1] ?? ''}${exponentText}`;
    const power = exponent === null ? '0' : `${exponent[1] === '-' ? '-' : ''}${exponent[2][0]}`;
    const canonical = `${signText === '-' ? '-' : ''}${whole?.[0] ?? '0'}.${fraction?.[0] ?? '0'}e${power}`;
    return { text: `${before}${written}${after}`, value: Number(canonical), written };
  });

const specialText = fc
  .tuple(
    space,
    sign,
    fc.constantFrom('inf', 'infinity', 'nan'),
    fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    space,
  )
  .map(([before, signText, word, upper, afterSpace]) => {
    const cased = [...word]
      .map((letter, index) => (upper[index] === true ? letter.toUpperCase() : letter))
      .join('');
    const value = word === 'nan' ? Number.NaN : signText === '-' ? -Infinity : Infinity;
    return { text: `${before}${signText}${cased}${afterSpace}`, value };
  });

/** Texts just outside the grammar: `_` at an edge or doubled, prefixes, stray characters, lone marks. */
const outsideText = fc.oneof(
  fc.tuple(sign, digits).map(([signText, [, written]]) => `${signText}_${written}`),
  digits.map(([, written]) => `${written}_`),
  fc.tuple(digits, digits).map(([[, left], [, right]]) => `${left}__${right}`),
  fc.tuple(digits, digits).map(([[, left], [, right]]) => `${left}_.${right}`),
  fc.tuple(digits, digits).map(([[, left], [, right]]) => `${left}._${right}`),
  fc.tuple(digits, digits).map(([[, left], [, right]]) => `${left}e_${right}`),
  fc
    .tuple(digits, fc.constantFrom('0x', '0X', '0o', '0b', '-0x'))
    .map(([[plain], prefix]) => `${prefix}${plain}`),
  fc
    .tuple(digits, fc.constantFrom('a', 'f', 'x', ',', ' 1', '..', 'e', 'e+', '+', '%'))
    .map(([[, written], tail]) => `${written}${tail}`),
  fc.constantFrom(
    '',
    ' ',
    '.',
    '+',
    '-',
    '+-1',
    '--1',
    '_',
    'e5',
    '.e5',
    'infinit',
    'nann',
    'in f',
    '+ 1',
    '١٢٣',
  ),
);

describe('the one number grammar (Python int() / float() on ASCII digits)', () => {
  it('reads every integer spelling exactly, as an integer and as a float', () => {
    fc.assert(
      fc.property(integerText, ({ text, value, canonical }) => {
        expect(decimalInteger(text)).toBe(value);
        expect(Object.is(decimalFloat(text), Number(canonical))).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });

  it('reads every float spelling as the double of its canonical form, and no integer', () => {
    fc.assert(
      fc.property(floatText, ({ text, value, written }) => {
        expect(Object.is(decimalFloat(text), value)).toBe(true);
        if (/[.eE]/.test(written)) expect(decimalInteger(text)).toBeUndefined();
      }),
      { numRuns: 3_000 },
    );
  });

  it('reads inf, infinity and nan with a sign in any case', () => {
    fc.assert(
      fc.property(specialText, ({ text, value }) => {
        expect(Object.is(decimalFloat(text), value)).toBe(true);
        expect(decimalInteger(text)).toBeUndefined();
      }),
    );
  });

  it('refuses every text just outside the grammar', () => {
    fc.assert(
      fc.property(outsideText, (text) => {
        expect(decimalFloat(text), text).toBeUndefined();
        expect(decimalInteger(text), text).toBeUndefined();
      }),
      { numRuns: 3_000 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { TfpipeError } from '../errors/tfpipe-error.js';
import { expandBraces } from './expand-braces.js';
import { decodeFileName, escapeFileName } from './file-name.js';
import { compileGlob, isGlob, matchesGlob } from './glob-pattern.js';

describe('matchesGlob', () => {
  it.each([
    ['part-*.csv', 'part-01.csv', true],
    ['part-*.csv', 'x/part-01.csv', false],
    ['*.csv', '.hidden.csv', false],
    ['.*.csv', '.hidden.csv', true],
    ['**/*.csv', 'x/y/z.csv', true],
    ['**/*.csv', 'z.csv', true],
    ['**/*.csv', '.git/z.csv', false],
    ['a/**/b/**/c', 'a/b/c', true],
    ['a/**/b/**/c', 'a/x/b/y/z/c', true],
    ['a/**/b/**/c', 'a/x/y/c', false],
    ['{a,b}?.csv', 'b1.csv', true],
    ['{a,b}?.csv', 'c1.csv', false],
    ['x.{gz,{zz,tfrecord}}', 'x.tfrecord', true],
    ['{a/x,b}/*.csv', 'a/x/1.csv', true],
    ['[a-c]x', 'bx', true],
    ['[!a-c]x', 'bx', false],
    ['[^a-c]x', 'dx', true],
    ['[]]x', ']x', true],
    ['[x', '[x', true],
    ['?.csv', 'é.csv', true],
    ['?.csv', '😀.csv', true],
    ['/data/*.csv', '/data/a.csv', true],
    ['/data/*.csv', 'data/a.csv', false],
    ['*a*b', 'xaxxb', true],
    ['*a*b', 'xaxxbc', false],
    ['a*', 'a', true],
  ])('%s on %s is %s', (pattern, path, expected) => {
    expect(matchesGlob(pattern, path)).toBe(expected);
  });

  it('recognises glob syntax', () => {
    expect(isGlob('out/train-*')).toBe(true);
    expect(isGlob('data/{a,b}.parquet')).toBe(true);
    expect(isGlob('data/a.parquet')).toBe(false);
  });
});

describe('compileGlob errors', () => {
  it('refuses a range out of order with INVALID_OPTION naming the pattern', () => {
    const error = (() => {
      try {
        compileGlob('data/x[z-a].csv');
      } catch (caught) {
        return caught;
      }
    })();
    expect(TfpipeError.is(error)).toBe(true);
    expect((error as TfpipeError).code).toBe('INVALID_OPTION');
    expect((error as TfpipeError).message).toBe(
      'invalid glob "data/x[z-a].csv": range "z-a" is out of order',
    );
  });

  it('refuses a pattern longer than 4096 characters', () => {
    expect(() => compileGlob('a'.repeat(5000))).toThrow(/longer than 4096 characters/);
  });
});

describe('expandBraces', () => {
  it('expands nested alternatives once each', () => {
    expect(expandBraces('x.{gz,{zz,tfrecord}}')).toEqual(['x.gz', 'x.zz', 'x.tfrecord']);
    expect(expandBraces('{a,a}')).toEqual(['a']);
  });

  it('keeps unmatched braces as text', () => {
    expect(expandBraces('a{b')).toEqual(['a{b']);
    expect(expandBraces('a}b{c,d}')).toEqual(['a}bc', 'a}bd']);
  });

  it('refuses 1025 alternatives and accepts 1024', () => {
    expect(expandBraces('{a,b}'.repeat(10))).toHaveLength(1024);
    expect(() => expandBraces(`${'{a,b}'.repeat(10)}{c,d}`)).toThrow(
      /expands to more than 1024 patterns: use fewer/,
    );
  });
});

describe('file names', () => {
  it('decodes UTF-8 names and flags others', () => {
    expect(decodeFileName(new Uint8Array([0x63, 0xc3, 0xa9]))).toEqual({ text: 'cé', valid: true });
    expect(decodeFileName(new Uint8Array([0x61, 0xff]))).toEqual({ text: 'a\uFFFD', valid: false });
  });

  it('escapes bytes that are not UTF-8, control characters and the backslash', () => {
    const bytes = new Uint8Array([0x64, 0xff, 0xc3, 0xa9, 0x1b, 0x5c, 0xed, 0xa0, 0x80, 0x2e, 0x63]);
    expect(escapeFileName(bytes)).toBe('d\\xFFé\\x1B\\\\\\xED\\xA0\\x80.c');
  });
});

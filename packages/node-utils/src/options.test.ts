import { describe, expect, it } from 'vitest';
import { namedOnce, optionErrorPolicy, optionPaths, optionsObject, repeatedItem } from './options.js';

describe('the shared option words', () => {
  it('repeatedItem finds the first item there twice, in order of its second place', () => {
    expect(repeatedItem([])).toBeUndefined();
    expect(repeatedItem(['a', 'b', 'c'])).toBeUndefined();
    expect(repeatedItem(['a', 'b', 'b', 'a'])).toBe('b');
    expect(repeatedItem(Array.from({ length: 10_000 }, (_, index) => `c${index % 9_999}`))).toBe('c0');
  });

  it('namedOnce reports the repeated item at its key, and nothing for other values', () => {
    expect(namedOnce(['x', 'y', 'x'], 'header')).toEqual([
      { path: ['header'], message: 'expected each name once, "x" is there twice' },
    ]);
    expect(namedOnce(['x', 'x'], 'extensions', 'extension')[0]?.message).toBe(
      'expected each extension once, "x" is there twice',
    );
    expect(namedOnce(['x'], 'header')).toEqual([]);
    expect(namedOnce(true, 'header')).toEqual([]);
    expect(namedOnce(undefined, 'header')).toEqual([]);
  });

  it('optionPaths and optionErrorPolicy refuse what every plugin refuses', () => {
    const schema = optionsObject({ paths: optionPaths(), ...optionErrorPolicy<Error>() });
    const issue = (value: unknown) => schema.safeParse(value).error?.issues[0]?.message;
    expect(issue({ paths: [] })).toBe('expected at least one path');
    expect(issue({ paths: [''] })).toBe('expected a non-empty string');
    expect(issue({ onError: 'retry' })).toBe('expected "fail" or "skip"');
    expect(issue({ onSkip: 'log' })).toBe('expected a function');
    expect(issue({ paths: ['a'], onError: 'skip', onSkip: () => {} })).toBeUndefined();
  });
});

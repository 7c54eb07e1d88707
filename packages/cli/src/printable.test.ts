import { describe, expect, it } from 'vitest';
import { printable, printableName } from './printable.js';

describe('printable', () => {
  it('escapes every control a terminal acts on: C0, DEL, C1 and bidirectional overrides', () => {
    expect(printableName('a\u001b[2Jb\u0007c\rd\u0008')).toBe('a\\x1b[2Jb\\x07c\\x0dd\\x08');
    expect(printableName('\u007f\u009b31m\u0085')).toBe('\\x7f\\x9b31m\\x85');
    expect(printableName('abc\u202eexe.txt\u2066')).toBe('abc\\u202eexe.txt\\u2066');
    expect(printableName('tab\there\nnewline')).toBe('tab\\x09here\\x0anewline');
  });

  it('keeps tabs and newlines in whole messages, and leaves other text, accents and emoji alone', () => {
    expect(printable('a\tb\nc\u001b')).toBe('a\tb\nc\\x1b');
    expect(printableName('café 東京 🦝 back\\slash')).toBe('café 東京 🦝 back\\slash');
  });
});

import { describe, expect, test } from 'vitest';
import { TfpipeError } from '../errors/tfpipe-error.js';
import { LineSplitter } from './line-splitter.js';
import { utf16Advice, utf16Evidence } from './utf16-evidence.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (line: Uint8Array): string => new TextDecoder().decode(line);

/** Every line of `input` cut into chunks of `size` bytes. */
function split(input: string, size: number, maxLineBytes = 1000): string[] {
  const splitter = new LineSplitter({ maxLineBytes, limitName: 'maxLineBytes' });
  const all = bytes(input);
  const lines: string[] = [];
  for (let start = 0; start < all.length; start += size)
    lines.push(...splitter.push(all.subarray(start, start + size)).map(text));
  const last = splitter.end();
  if (last !== undefined) lines.push(text(last));
  return lines;
}

describe('LineSplitter', () => {
  test('the same lines whatever the chunk size: \\n and \\r\\n ends, empty lines, a last line without \\n', () => {
    const input = 'a,1\r\n\nbé,2\nlast';
    for (const size of [1, 2, 3, 5, 100])
      expect(split(input, size), String(size)).toEqual(['a,1', '', 'bé,2', 'last']);
  });

  test('a line over the limit is RECORD_TOO_LARGE with its line and start byte, as soon as it outgrows it', () => {
    const splitter = new LineSplitter({
      maxLineBytes: 4,
      limitName: '--max-line',
      file: 'f.jsonl',
      stage: 'test',
    });
    expect(splitter.push(bytes('abcd\r\nxy\n'))).toHaveLength(2);
    let error: unknown;
    try {
      splitter.push(bytes('123'));
      splitter.push(bytes('456'));
    } catch (thrown) {
      error = thrown;
    }
    expect(TfpipeError.is(error)).toBe(true);
    expect((error as TfpipeError).code).toBe('RECORD_TOO_LARGE');
    expect((error as TfpipeError).fatal).toBe(true);
    expect((error as TfpipeError).position).toEqual({ file: 'f.jsonl', line: 3, byteOffset: 9 });
    expect((error as TfpipeError).message).toContain('over 4 bytes (--max-line)');
  });

  test('exactly maxLineBytes is accepted, with or without \\r', () => {
    expect(split('abcd\r\nabcd\nabcd', 2, 4)).toEqual(['abcd', 'abcd', 'abcd']);
  });
});

describe('utf16Evidence', () => {
  const le = (value: string): Uint8Array =>
    Uint8Array.from([...value].flatMap((char) => [char.charCodeAt(0), 0]));
  test('BOMs and NUL-interleaved ASCII are UTF-16; UTF-8, one NUL, and too few bytes are not', () => {
    expect(utf16Evidence(Uint8Array.of(0xff, 0xfe))).toBe('UTF-16LE');
    expect(utf16Evidence(Uint8Array.of(0xfe, 0xff))).toBe('UTF-16BE');
    expect(utf16Evidence(le('id,name\n'))).toBe('UTF-16LE');
    expect(utf16Evidence(le('id,name\n').slice(1))).toBe('UTF-16BE');
    expect(utf16Evidence(bytes('id,name\n'))).toBeUndefined();
    expect(utf16Evidence(bytes('id,\u0000name\n'))).toBeUndefined();
    expect(utf16Evidence(Uint8Array.of(0x61, 0))).toBeUndefined();
    expect(utf16Advice('UTF-16LE', '/data/train.csv')).toBe(
      'it looks like UTF-16LE, not UTF-8; convert it first: iconv -f UTF-16LE -t UTF-8 train.csv > train.utf8.csv',
    );
  });
});

// JSON Lines on hostile input: a line over the limit fails as soon as it outgrows it (a 100 MB line
// took 1.8 GB), a long line is read in linear time (300 MB without a newline: 72 s and more), and a
// UTF-16 file says so. Real files on disk, bounded for CI.
import { Buffer } from 'node:buffer';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonLinesSource } from './jsonl-source.js';
import type { JsonLinesSourceOptions } from './jsonl-source.js';

const MiB = 1024 * 1024;
const record = (value: number): string =>
  JSON.stringify({ features: { feature: { a: { int64List: { value: [String(value)] } } } } });

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-jsonl-hostile-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Reads every record of `content` written to NAME: how many came out, the error, and ArrayBuffer growth. */
async function drain(
  name: string,
  content: string | Uint8Array,
  options: Omit<JsonLinesSourceOptions, 'path'> = {},
): Promise<{ records: number; error: TfpipeError | undefined; growth: number; seconds: number }> {
  const path = join(directory, name);
  await writeFile(path, content);
  const baseline = process.memoryUsage().arrayBuffers;
  const started = performance.now();
  let records = 0;
  let error: TfpipeError | undefined;
  try {
    for await (const _ of jsonLinesSource({ ...options, path })) records++;
  } catch (thrown) {
    if (!TfpipeError.is(thrown)) throw thrown;
    error = thrown;
  }
  const growth = process.memoryUsage().arrayBuffers - baseline;
  return { records, error, growth, seconds: (performance.now() - started) / 1000 };
}

describe('JSON Lines line limit and splitting', () => {
  test('a line over maxLineBytes is RECORD_TOO_LARGE naming file, line and byte, before it is held whole', async () => {
    const long = `{"features":{"feature":{"a":{"bytesList":{"value":["${'A'.repeat(24 * MiB)}"]}}}}}`;
    const content = `${record(1)}\n${record(2)}\n${long}\n${record(3)}\n`;
    const outcome = await drain('long-line.jsonl', content, { maxLineBytes: MiB });
    expect(outcome.error?.code, String(outcome.error)).toBe('RECORD_TOO_LARGE');
    expect(outcome.error?.position).toMatchObject({
      file: join(directory, 'long-line.jsonl'),
      line: 3,
      byteOffset: record(1).length + record(2).length + 2,
    });
    expect(outcome.error?.message).toContain(
      'over 1048576 bytes (maxLineBytes in the jsonl source options of a pipeline file)',
    );
    expect(outcome.records).toBe(2);
    // Stopped one 1 MiB read past the limit, not after holding 24 MiB of line (and its string).
    expect(outcome.growth).toBeLessThan(8 * MiB);
  });

  test('the default limit is 64 MiB: a line just under it reads, and maxLineBytes is checked', async () => {
    const outcome = await drain('ok.jsonl', `${record(1)}\r\n\n${record(2)}`);
    expect(outcome).toMatchObject({ records: 2, error: undefined });
    expect(() => jsonLinesSource({ path: 'x.jsonl', maxLineBytes: 0 })).toThrow(
      /maxLineBytes must be a positive integer/,
    );
  });

  test('a 64 MiB line without a newline is split in linear time (quadratic before: seconds per MiB)', async () => {
    const outcome = await drain('no-newline.jsonl', Buffer.alloc(64 * MiB, 0x78), {
      maxLineBytes: 128 * MiB,
    });
    expect(outcome.error?.code, String(outcome.error)).toBe('JSON_PARSE');
    expect(outcome.error?.position.line).toBe(1);
    expect(outcome.seconds).toBeLessThan(15);
  });

  test('UTF-16 (here LE without a BOM, valid UTF-8 full of NULs) is an error that says UTF-16 and how to convert', async () => {
    const outcome = await drain('utf16.jsonl', Buffer.from(`${record(1)}\n`, 'utf16le'));
    expect(outcome.error?.code, String(outcome.error)).toBe('JSON_PARSE');
    expect(outcome.error?.message).toContain('iconv -f UTF-16LE -t UTF-8 utf16.jsonl > utf16.utf8.jsonl');
    expect(outcome.records).toBe(0);
  });
});

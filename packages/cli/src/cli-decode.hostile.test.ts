// Hostile records through the built CLI: a record with 130k features (argument spreads overflowed
// the stack), one of millions of empty values (decoded ~60x its size into a V8 OOM abort), and float -0.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeExample, example, float, int64, type Feature } from '@tfpipe/core';
import { frameRecord } from '@tfpipe/sink-tfrecord/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, tfpipe } from './__fixtures__/run-cli.js';

/** More features than a function call takes arguments (V8 overflows its stack near 120k). */
const WIDE = 130_000;
/** Empty bytes values (2 wire bytes each): a 16 MB record that decoded into ~1.6 GB of Uint8Arrays. */
const EMPTY_VALUES = 8_000_000;

let directory: string;
let wide: string;
let empties: string;
let signed: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-decode-'));
  const features = Object.create(null) as Record<string, Feature>;
  for (let index = 0; index < WIDE; index++) features[`f${String(index).padStart(6, '0')}`] = int64(index);
  wide = join(directory, 'wide.tfrecord');
  await writeFile(wide, frameRecord(encodeExample(example(features))));
  empties = join(directory, 'empties.tfrecord');
  await writeFile(empties, frameRecord(emptyValuesExample(EMPTY_VALUES)));
  signed = join(directory, 'signed.tfrecord');
  await writeFile(signed, frameRecord(encodeExample(example({ f: float(-0, 0, -1.5) }))));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Example bytes `{x: BytesList of count empty values}`, written directly (not built from objects). */
function emptyValuesExample(count: number): Uint8Array {
  const varint = (value: number): number[] => {
    const bytes: number[] = [];
    for (; value >= 0x80; value = Math.floor(value / 128)) bytes.push((value % 128) | 0x80);
    return [...bytes, value];
  };
  const list = count * 2;
  const feature = 1 + varint(list).length + list;
  const entry = 3 + 1 + varint(feature).length + feature;
  const head = [0x0a, ...varint(entry + 1 + varint(entry).length)];
  head.push(0x0a, ...varint(entry), 0x0a, 1, 0x78, 0x12, ...varint(feature), 0x0a, ...varint(list));
  const bytes = new Uint8Array(head.length + list);
  bytes.set(head);
  for (let index = 0; index < count; index++) bytes[head.length + index * 2] = 0x0a;
  return bytes;
}

/** Runs the built CLI under a V8 heap of `heapMegabytes`. */
function tfpipeInHeap(
  heapMegabytes: number,
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [`--max-old-space-size=${heapMegabytes}`, BIN, ...args],
      { maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('a record with 130k features', () => {
  it(
    'inspect shows every feature and inspect --json prints the whole record',
    { timeout: 120_000 },
    async () => {
      const text = await tfpipe(['inspect', wide]);
      expect([text.code, text.stderr]).toEqual([0, '']);
      expect(text.stdout.split('\n').filter((line) => line.startsWith('  f')).length).toBe(WIDE);
      const json = await tfpipe(['inspect', '--json', wide]);
      expect([json.code, json.stderr]).toEqual([0, '']);
      const form = JSON.parse(json.stdout) as { features: { feature: Record<string, unknown> } };
      expect(Object.keys(form.features.feature).length).toBe(WIDE);
    },
  );

  it.each([
    ['text', 'int64 '],
    ['json', '"kind": "int64"'],
    ['tf', 'tf.io.FixedLenFeature('],
    ['dali', 'tfrec.FixedLenFeature('],
  ])('schema --format %s lists every feature', { timeout: 120_000 }, async (format, marker) => {
    const result = await tfpipe(['schema', '--format', format, wide]);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(result.stdout.split(marker).length - 1).toBe(WIDE);
  });

  it(
    'convert of a directory writes the shard and a reader_spec.py with every feature',
    { timeout: 120_000 },
    async () => {
      const input = join(directory, 'wide-input');
      await mkdir(input);
      await copyFile(wide, join(input, 'wide.tfrecord'));
      const output = join(directory, 'wide-output');
      const result = await tfpipe(['convert', input, output]);
      expect([result.code, result.stderr]).toEqual([0, '']);
      const spec = await readFile(join(output, 'reader_spec.py'), 'utf8');
      expect(spec.split('tf.io.FixedLenFeature(').length - 1).toBe(WIDE);
    },
  );
});

describe('a 16 MB record of 8M empty bytes values, under a 256 MB V8 heap', () => {
  it.each(['inspect', 'inspect --json', 'schema'])(
    '%s ends with one RECORD_TOO_LARGE line naming the record, not an OOM abort',
    { timeout: 120_000 },
    async (command) => {
      const result = await tfpipeInHeap(256, [...command.split(' '), empties]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^tfpipe (inspect|schema): Example too large to decode at byte \d+ \(record 0\) of .*empties\.tfrecord: its values would take more than \d+ bytes of memory once decoded.*\[RECORD_TOO_LARGE\]\n$/,
      );
    },
  );
});

describe('a directory holding that record, converted under a 256 MB V8 heap', () => {
  it(
    'ends with RECORD_TOO_LARGE naming the file and record, and writes no shard',
    { timeout: 120_000 },
    async () => {
      const input = join(directory, 'empties-input');
      await mkdir(input);
      await copyFile(empties, join(input, 'empties.tfrecord'));
      const output = join(directory, 'empties-output');
      const result = await tfpipeInHeap(256, ['convert', input, output]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^tfpipe convert: Example too large to decode at byte \d+ \(record 0\) of .*empties\.tfrecord: .*\[RECORD_TOO_LARGE\]\n$/,
      );
      const written = await readdir(output).catch(() => []);
      expect(written.filter((name) => name.endsWith('.tfrecord'))).toEqual([]);
    },
  );
});

describe('float -0 on the CLI', () => {
  it('inspect --json writes -0 (as protobuf does) and inspect shows -0', async () => {
    const json = await tfpipe(['inspect', '--json', signed]);
    expect(json.stdout).toBe('{"features":{"feature":{"f":{"floatList":{"value":[-0,0,-1.5]}}}}}\n');
    const text = await tfpipe(['inspect', signed]);
    expect(text.stdout).toMatch(/ f\s+float\[3\]\s+-0, 0, -1\.5\n/);
  });
});

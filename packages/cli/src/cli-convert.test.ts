import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CORPUS, tfpipe, tfpipeProcess } from './__fixtures__/run-cli.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-convert-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const LINES = [
  {
    features: {
      feature: {
        age: { int64List: { value: ['9007199254740993'] } },
        name: { bytesList: { value: ['aGk='] } },
      },
    },
  },
  {
    features: {
      feature: {
        age: { int64List: { value: ['-9223372036854775808'] } },
        score: { floatList: { value: [1.5, 'NaN'] } },
      },
    },
  },
  { features: { feature: { empty: {} } } },
];

describe('tfpipe convert', () => {
  it('converts JSON Lines to a TFRecord file whose --json view is the same records', async () => {
    const input = join(directory, 'records.jsonl');
    await writeFile(input, LINES.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const out = join(directory, 'records.tfrecord');
    // The built executable end to end, as a user runs it.
    const converted = await tfpipeProcess(['convert', input, out]);
    expect(converted.stderr).toBe('');
    expect(converted.code).toBe(0);
    expect(converted.stdout).toContain('wrote 3 records in 1 file(s)');
    const shown = await tfpipe(['inspect', '--json', out]);
    expect(
      shown.stdout
        .trim()
        .split('\n')
        .map((line): unknown => JSON.parse(line)),
    ).toEqual(LINES);
  });

  it('re-shards and gzips TFRecords without changing a record', async () => {
    const out = join(directory, 'mnist');
    const converted = await tfpipe([
      'convert',
      join(CORPUS, 'tfx_mnist_floats.tfrecord'),
      out,
      '--shards',
      '4',
      '--compression',
      'gzip',
      '--manifest',
    ]);
    expect(converted.code).toBe(0);
    const names = (await readdir(out)).sort();
    expect(names).toEqual([
      'data-00000-of-00004.tfrecord.gz',
      'data-00001-of-00004.tfrecord.gz',
      'data-00002-of-00004.tfrecord.gz',
      'data-00003-of-00004.tfrecord.gz',
      'data.manifest.json',
      'reader_spec.py',
    ]);
    const counted = await tfpipe(['count', join(out, '*.gz')]);
    expect(counted.stdout).toContain('1000\ttotal');
    const original = await tfpipe(['inspect', '--json', join(CORPUS, 'tfx_mnist_floats.tfrecord')]);
    const resharded = await tfpipe(['inspect', '--json', join(out, '*.gz')]);
    // Round-robin over 4 shards: shard k holds records k, k+4, …
    const originalLines = original.stdout.trim().split('\n');
    const reshardedLines = resharded.stdout.trim().split('\n');
    expect(reshardedLines).toHaveLength(1000);
    expect(reshardedLines[0]).toBe(originalLines[0]);
    expect(reshardedLines[250]).toBe(originalLines[1]);
    expect([...reshardedLines].sort()).toEqual([...originalLines].sort());
  });

  it('stops at a malformed JSON line, names the line, and leaves no output file', async () => {
    const input = join(directory, 'bad.jsonl');
    await writeFile(input, `${JSON.stringify(LINES[0])}\n{"features": \n`);
    const out = join(directory, 'bad-out');
    const result = await tfpipe(['convert', input, out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/malformed JSON at record 1 \(line 2\) of .*bad\.jsonl: .*\[JSON_PARSE\]/);
    expect(await readdir(out).catch(() => [])).toEqual([]);
  });

  it('skips bad lines with --on-error skip and says how many', async () => {
    const input = join(directory, 'mixed.jsonl');
    await writeFile(input, `${JSON.stringify(LINES[0])}\nnot json\n${JSON.stringify(LINES[1])}\n`);
    const result = await tfpipe(['convert', input, join(directory, 'mixed.tfrecord'), '--on-error', 'skip']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('wrote 2 records');
    expect(result.stdout).toMatch(/skipped 1 bad record\(s\):\n {2}malformed JSON at record 1 \(line 2\)/);
  });

  it('refuses to overwrite existing output unless --overwrite', async () => {
    const input = join(directory, 'again.jsonl');
    await writeFile(input, `${JSON.stringify(LINES[0])}\n`);
    const out = join(directory, 'again.tfrecord');
    expect((await tfpipe(['convert', input, out])).code).toBe(0);
    const refused = await tfpipe(['convert', input, out]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('OUTPUT_EXISTS');
    expect((await tfpipe(['convert', input, out, '--overwrite'])).code).toBe(0);
  });

  it('rejects a bad flag value before reading anything', async () => {
    const result = await tfpipe([
      'convert',
      join(CORPUS, 'pwnall_singles.tfrecords'),
      join(directory, 'x'),
      '--shards',
      '8x',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--shards: expected a whole number of at least 1, got "8x"');
  });

  it('tells a file without a known extension by its first bytes: TFRecord (raw or gzip) read, anything else refused', async () => {
    const corpusFile = join(CORPUS, 'pwnall_singles.tfrecords');
    const raw = join(directory, 'records.bin');
    await copyFile(corpusFile, raw);
    const gz = join(directory, 'records-gz.bin');
    await writeFile(gz, gzipSync(await readFile(corpusFile)));
    const reference = await tfpipe(['convert', corpusFile, join(directory, 'reference.tfrecord')]);
    expect(reference.code).toBe(0);
    for (const input of [raw, gz]) {
      const out = join(directory, `${input.endsWith('gz.bin') ? 'gz' : 'raw'}-out.tfrecord`);
      const result = await tfpipe(['convert', input, out]);
      expect(result.code, result.stderr).toBe(0);
      expect(await readFile(out)).toEqual(await readFile(join(directory, 'reference.tfrecord')));
    }
    const text = join(directory, 'table.bin');
    await writeFile(text, 'id,name\n1,a\n2,b\n');
    const out = join(directory, 'table-out.tfrecord');
    const refused = await tfpipe(['convert', text, out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/cannot tell what the input holds .*table\.bin.*\[INVALID_OPTION\]/);
    expect(refused.stderr).not.toContain('RECORD_CRC');
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(await readdir(directory)).not.toContain('table-out.tfrecord');
  });

  it('refuses a CSV redirected to /dev/stdin instead of reading it as a damaged TFRecord', async () => {
    const csv = join(directory, 'stdin.csv');
    await writeFile(csv, 'id,name\n1,a\n');
    const input = await open(csv, 'r');
    const out = join(directory, 'stdin-out.tfrecord');
    try {
      const child = spawn(process.execPath, [BIN, 'convert', '/dev/stdin', out], {
        stdio: [input.fd, 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
      const code = await new Promise<number | null>((done) => child.on('close', done));
      expect(code).toBe(2);
      expect(stderr).toMatch(/cannot tell what the input holds .*\/dev\/stdin.*\[INVALID_OPTION\]/);
    } finally {
      await input.close();
    }
    expect(await readdir(directory)).not.toContain('stdin-out.tfrecord');
  });
});

import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tfpipe, tfpipeProcess } from './__fixtures__/run-cli.js';

const linux = process.platform === 'linux';
if (!linux)
  console.warn('cli-input-flags.test: names that are not UTF-8 need Linux, those cases are skipped');

let directory: string;
let csv: string;
let shard: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-input-flags-'));
  csv = join(directory, 'people.csv');
  await writeFile(csv, 'name,age\nada,36\nbob,7\n');
  shard = join(directory, 'people.tfrecord');
  expect((await tfpipe(['convert', csv, shard, '--quiet'])).code).toBe(0);
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('tfpipe convert refuses flags for another kind of input', () => {
  it.each([
    [['--coco', 'instances.json'], '--coco applies to images input: people.csv is read as CSV'],
    [['--resize', '224x224'], '--resize applies to images input: people.csv is read as CSV'],
    [['--columns', 'a,b'], '--columns applies to Parquet input: people.csv is read as CSV'],
    [['--sequence'], '--sequence applies to JSON Lines or TFRecord input: people.csv is read as CSV'],
  ])('%s on a CSV: exit 2, one line, nothing written', async (flags, message) => {
    const out = join(directory, `refused-${flags[0]!.slice(2)}`);
    const result = await tfpipe(['convert', 'people.csv', out, ...flags], { cwd: directory });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`tfpipe convert: ${message} [INVALID_OPTION]\n`);
    await expect(readdir(out)).rejects.toThrow(/ENOENT/);
  });

  it('--label on TFRecord input is refused; on the CSV it is taken', async () => {
    const refused = await tfpipe(['convert', shard, join(directory, 'l1'), '--label', 'age']);
    expect(refused.stderr).toBe(
      `tfpipe convert: --label applies to CSV input: ${shard} is read as TFRecord [INVALID_OPTION]\n`,
    );
    const taken = await tfpipe(['convert', csv, join(directory, 'l2'), '--label', 'age', '--quiet']);
    expect(taken.code).toBe(0);
  });

  it('--fit without --resize is refused', async () => {
    const images = join(directory, 'images');
    await mkdir(join(images, 'cat'), { recursive: true });
    await writeFile(join(images, 'cat', 'a.png'), 'not decoded before the flags are checked');
    const result = await tfpipe(['convert', images, join(directory, 'fit'), '--fit', 'cover']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('tfpipe convert: --fit needs --resize WxH [INVALID_OPTION]\n');
  });
});

describe('tfpipe convert --threads', () => {
  it('writes the same bytes on one thread and two (a CSV of ~1.6 MB, quoted newlines, CRLF, a BOM)', async () => {
    const rows = Array.from({ length: 30_000 }, (_, index) =>
      index % 40 === 0
        ? `${index},"São Paulo\r\nline ${index}",0.5`
        : `${index},東京 ${index % 97},${index / 8}`,
    );
    const big = join(directory, 'threads.csv');
    await writeFile(big, `\uFEFFid,city,x\r\n${rows.join('\r\n')}\r\n`);
    const outputs: Buffer[] = [];
    for (const threads of ['1', '2']) {
      const out = join(directory, `threads-${threads}.tfrecord`);
      const result = await tfpipe(['convert', big, out, '--quiet', '--threads', threads]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      outputs.push(await readFile(out));
    }
    expect(outputs[0]!.length).toBeGreaterThan(1_000_000);
    expect(outputs[1]!.equals(outputs[0]!)).toBe(true);
  });

  it('refuses a count it does not know, and --threads on input other than CSV', async () => {
    const bad = await tfpipe(['convert', csv, join(directory, 't3'), '--threads', '3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'tfpipe convert: --threads: expected one of 1, 2, auto, got "3" [INVALID_OPTION]\n',
    );
    const other = await tfpipe(['convert', shard, join(directory, 't4'), '--threads', '2']);
    expect(other.stderr).toBe(
      `tfpipe convert: --threads applies to CSV input: ${shard} is read as TFRecord [INVALID_OPTION]\n`,
    );
  });
});

describe('CLI errors name flags, not option names', () => {
  it('a record over --max-record-bytes names the flag (count and convert)', async () => {
    for (const command of ['count', 'convert']) {
      const args = command === 'count' ? [shard] : [shard, join(directory, 'big.tfrecord')];
      const result = await tfpipe([command, ...args, '--max-record-bytes', '4']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('exceeds --max-record-bytes 4 [RECORD_TOO_LARGE]');
      expect(result.stderr).not.toContain('maxRecordBytes');
    }
  });

  it('a CSV record over --max-record-length names the flag (the flag is new: there was none)', async () => {
    const long = join(directory, 'long.csv');
    await writeFile(long, `x\n"${'a'.repeat(100)}\n`);
    const result = await tfpipe([
      'convert',
      long,
      join(directory, 'long.tfrecord'),
      '--max-record-length',
      '10',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `tfpipe convert: CSV record longer than 10 characters at line 2 of ${long}: a field or a quote that never closes; raise --max-record-length if the data is real [RECORD_TOO_LARGE]\n`,
    );
  });

  it('an existing output names --overwrite, not overwrite: true', async () => {
    const out = join(directory, 'exists.tfrecord');
    await writeFile(out, 'mine');
    const result = await tfpipe(['convert', csv, out]);
    expect(result.stderr).toContain('--overwrite');
    expect(result.stderr).not.toContain('overwrite: true');
    expect(await readFile(out, 'utf8')).toBe('mine');
  });

  it('an option with no flag is named by its pipeline-file key', async () => {
    const empty = join(directory, 'empty.csv');
    await writeFile(empty, '');
    const result = await tfpipe(['convert', empty, join(directory, 'empty.tfrecord')]);
    expect(result.stderr).toContain('pass source.options.allowEmpty: true to accept empty files [CSV_EMPTY]');
  });
});

describe.skipIf(!linux)('CLI inputs whose names are not UTF-8', () => {
  it('count over a glob fails naming the file (was 3 of 6 counted, exit 0)', async () => {
    const shards = join(directory, 'shards');
    await mkdir(shards);
    const bytes = await readFile(shard);
    for (const name of [[0x61], [0x62], [0x63], [0x64, 0xff], [0x65, 0xfe], [0x66, 0xe9]]) {
      await writeFile(
        Buffer.concat([Buffer.from(`${shards}/`), Buffer.from(name), Buffer.from('.tfrecord')]),
        bytes,
      );
    }
    // A process: the commands that take globs expand them against the process's directory, not io.cwd.
    const counted = await tfpipeProcess(['count', 'shards/*.tfrecord'], { cwd: directory });
    expect(counted.code).toBe(1);
    expect(counted.stdout).toBe('');
    expect(counted.stderr).toBe(
      'tfpipe count: cannot read a file whose name is not valid UTF-8 in shards/d\\xFF.tfrecord: rename it to UTF-8 (e.g. convmv -f latin1 -t utf-8 --notest) [IO]\n',
    );
    const out = join(directory, 'from-shards');
    const converted = await tfpipe(['convert', shards, out]);
    expect(converted.code).toBe(1);
    expect(converted.stderr).toContain(`${shards}/d\\xFF.tfrecord`);
    expect(await readdir(out).catch(() => [])).toEqual([]);
  });

  it('an image class folder whose name is not UTF-8 fails naming it (was a codeless ENOENT)', async () => {
    const images = join(directory, 'classes');
    await mkdir(join(images, 'cat'), { recursive: true });
    await writeFile(join(images, 'cat', 'a.png'), 'x');
    await mkdir(Buffer.concat([Buffer.from(`${images}/b`), Buffer.from([0xff])]));
    const result = await tfpipe(['convert', images, join(directory, 'classes-out')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `tfpipe convert: cannot read a file whose name is not valid UTF-8 in ${images}/b\\xFF: rename it to UTF-8 (e.g. convmv -f latin1 -t utf-8 --notest) [IO]\n`,
    );
  });
});

describe('tfpipe run --help', () => {
  it('says a pipeline file names code that runs, also on --dry-run', async () => {
    const result = await tfpipe(['run', '--help']);
    expect(result.stdout).toContain('A pipeline file names code that runs');
    expect(result.stdout).toContain('also with\n--dry-run');
  });
});

describe('tfpipe convert names the flag of a CSV option the source refuses', () => {
  it.each([
    [';;', '--delimiter: expected one character other than a newline, got ";;"'],
    ['"', '--delimiter: expected a character other than quote, got "\\""'],
  ])('--delimiter %s', async (delimiter, message) => {
    const result = await tfpipe(['convert', csv, join(directory, 'bad.tfrecord'), '--delimiter', delimiter]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`tfpipe convert: ${message} [INVALID_OPTION]\n`);
  });
});

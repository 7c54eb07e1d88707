import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRowsCsv } from './__fixtures__/reliability.js';
import { tfpipe } from './__fixtures__/run-cli.js';

let directory: string;
let csv: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-outputs-'));
  csv = join(directory, 'rows.csv');
  await writeRowsCsv(csv, 500);
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** Every entry of a directory with its bytes (directories as `<dir>`). */
async function snapshot(out: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const entry of await readdir(out, { withFileTypes: true })) {
    result[entry.name] = entry.isDirectory() ? '<dir>' : await readFile(join(out, entry.name), 'hex');
  }
  return result;
}

/** Files beside the output that are not the `x` prefix's: --overwrite must leave each one as it was. */
const FOREIGN: Record<string, string> = {
  'x-00001-of-00003.pdf': '%PDF-1.7 a paper',
  'x-00000-of-00003.tar.gz': 'an archive',
  'val-00000-of-00002.tfrecord': 'val shard 0',
  'val-00001-of-00002.tfrecord': 'val shard 1',
  'other.manifest.json': '{"someone": "else"}',
  'notes.tfrec': 'notes',
};

describe('--overwrite replaces only the previous output of the prefix', () => {
  it('keeps a PDF, another prefix, a foreign manifest and a directory named x.tfrecord', async () => {
    const out = join(directory, 'foreign');
    await mkdir(join(out, 'x.tfrecord'), { recursive: true });
    for (const [name, text] of Object.entries(FOREIGN)) await writeFile(join(out, name), text);
    const first = await tfpipe([
      'convert',
      csv,
      out,
      '--prefix',
      'x',
      '--shards',
      '3',
      '--manifest',
      '--quiet',
    ]);
    expect(first.stderr).toBe('');
    const again = await tfpipe(['convert', csv, out, '--prefix', 'x', '--shards', '3']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `tfpipe convert: output already exists (pass --overwrite to replace it) in ${join(out, 'x-00000-of-00003.tfrecord')} [OUTPUT_EXISTS]\n`,
    );
    const replaced = await tfpipe(['convert', csv, out, '--prefix', 'x', '--shards', '2', '--overwrite']);
    expect(replaced.stderr).toBe('');
    expect(replaced.code).toBe(0);
    expect(replaced.stdout).toContain('removed 4 old file(s)');
    const after = await snapshot(out);
    expect(Object.keys(after).sort()).toEqual(
      [
        ...Object.keys(FOREIGN),
        'x.tfrecord',
        'x-00000-of-00002.tfrecord',
        'x-00001-of-00002.tfrecord',
        'reader_spec.py',
      ].sort(),
    );
    for (const [name, text] of Object.entries(FOREIGN))
      expect(after[name]).toBe(Buffer.from(text).toString('hex'));
  });

  it('keeps the old set whole when the new run fails mid-run', async () => {
    const out = join(directory, 'midrun');
    expect((await tfpipe(['convert', csv, out, '--shards', '2', '--quiet'])).code).toBe(0);
    const before = await snapshot(out);
    const bad = join(directory, 'bad.csv');
    await writeFile(bad, (await readFile(csv, 'utf8')) + '501,1,0.5,text,one too many\n');
    const failed = await tfpipe(['convert', bad, out, '--shards', '3', '--overwrite']);
    expect(failed.code).toBe(1);
    expect(await snapshot(out)).toEqual(before);
  });
});

describe('--save-config', () => {
  it('refuses the input, the output and an existing file, before anything is written', async () => {
    const original = await readFile(csv, 'utf8');
    const out = join(directory, 'saved.tfrecord');
    const onInput = await tfpipe(['convert', csv, out, '--save-config', csv]);
    expect(onInput.code).toBe(1);
    expect(onInput.stderr).toBe(
      `tfpipe convert: --save-config names an input of this run in ${csv}: give a file outside the input [OUTPUT_EXISTS]\n`,
    );
    expect(await readFile(csv, 'utf8')).toBe(original);
    const onOutput = await tfpipe(['convert', csv, out, '--save-config', out]);
    expect(onOutput.stderr).toContain('--save-config names the output of this run');
    await expect(readFile(out)).rejects.toThrow();
    const existing = join(directory, 'pipeline.json');
    await writeFile(existing, 'mine');
    const refused = await tfpipe(['convert', csv, out, '--save-config', existing]);
    expect(refused.stderr).toBe(
      `tfpipe convert: --save-config would replace an existing file in ${existing}: pass --overwrite to replace it [OUTPUT_EXISTS]\n`,
    );
    expect(await readFile(existing, 'utf8')).toBe('mine');
    await expect(readFile(out)).rejects.toThrow();
    const written = await tfpipe(['convert', csv, out, '--save-config', existing, '--overwrite', '--quiet']);
    expect(written.code).toBe(0);
    expect(JSON.parse(await readFile(existing, 'utf8'))).toHaveProperty('sink');
  });

  it('writes nothing when the run fails', async () => {
    const bad = join(directory, 'bad-save.csv');
    await writeFile(bad, 'id,label\n1,2\n3\n');
    const file = join(directory, 'never.json');
    const failed = await tfpipe(['convert', bad, join(directory, 'never.tfrecord'), '--save-config', file]);
    expect(failed.code).toBe(1);
    await expect(readFile(file)).rejects.toThrow();
  });
});

describe('schema --format tfds', () => {
  it('refuses to replace dataset_info.json or features.json without --overwrite', async () => {
    const out = join(directory, 'tfds');
    expect((await tfpipe(['convert', csv, out, '--quiet'])).code).toBe(0);
    const shard = join(out, 'data-00000-of-00001.tfrecord');
    await writeFile(join(out, 'features.json'), 'my own features');
    const refused = await tfpipe(['schema', shard, '--format', 'tfds']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `tfpipe schema: --format tfds would replace an existing file in ${join(out, 'features.json')}: pass --overwrite to replace it [OUTPUT_EXISTS]\n`,
    );
    expect(await readFile(join(out, 'features.json'), 'utf8')).toBe('my own features');
    await expect(readFile(join(out, 'dataset_info.json'))).rejects.toThrow();
    const replaced = await tfpipe(['schema', shard, '--format', 'tfds', '--overwrite']);
    expect(replaced.code).toBe(0);
    expect(JSON.parse(await readFile(join(out, 'features.json'), 'utf8'))).toHaveProperty('featuresDict');
    expect((await readdir(out)).filter((name) => name.includes('tfpipe-tmp'))).toEqual([]);
  });
});

describe('compression from OUT', () => {
  it('gzips OUT.tfrecord.gz without --compression, and refuses a contradiction naming the flag', async () => {
    const out = join(directory, 'c.tfrecord.gz');
    expect((await tfpipe(['convert', csv, out, '--quiet'])).code).toBe(0);
    expect([...(await readFile(out)).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    const zz = join(directory, 'c.tfrecord.zz');
    const refused = await tfpipe(['convert', csv, zz, '--compression', 'gzip']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `tfpipe convert: --compression gzip contradicts OUT "${zz}", whose ending says zlib: drop --compression (it follows the name) or rename OUT [INVALID_OPTION]\n`,
    );
    await expect(readFile(zz)).rejects.toThrow();
  });
});

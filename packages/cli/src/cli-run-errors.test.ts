import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peopleCsv, writeConfig } from './__fixtures__/pipeline-files.js';
import { tfpipe } from './__fixtures__/run-cli.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-run-errors-'));
  await writeFile(join(directory, 'people.csv'), peopleCsv(50));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const base = (out: string) => ({
  source: { plugin: '@tfpipe/source-csv', options: { path: 'people.csv' } },
  sink: { plugin: '@tfpipe/sink-tfrecord', options: { directory: out } },
});

/** Runs the config and checks: the exit code, exactly one stderr line, and that `out` was not created. */
async function refused(config: string, out: string, code = 2): Promise<string> {
  const result = await tfpipe(['run', config]);
  expect(result.code).toBe(code);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(await readdir(join(directory, out)).catch(() => 'absent')).toBe('absent');
  return lines[0]!;
}

describe('tfpipe run refuses bad input in one line, writing nothing', () => {
  it('a JSON syntax error, with its line and column', async () => {
    const file = join(directory, 'syntax.json');
    await writeFile(file, '{\n  "source": { "plugin": "csv" }\n  "sink": {}\n}\n');
    expect(await refused(file, 'nothing')).toBe(
      `tfpipe run: invalid config file at line 3 (column 3) of ${file}: Expected ',' or '}' after property value [CONFIG_PARSE]`,
    );
  });

  it('a YAML syntax error, with its line and column', async () => {
    const file = join(directory, 'syntax.yaml');
    await writeFile(file, 'source:\n  plugin: csv\n  plugin: parquet\n');
    expect(await refused(file, 'nothing')).toMatch(
      /^tfpipe run: invalid config file at line 3 \(column 3\) of .*syntax\.yaml: .*\[CONFIG_PARSE\]$/,
    );
  });

  it('a plugin option of the wrong type, naming the exact key and the value', async () => {
    const config = base('out-shards');
    const file = await writeConfig(directory, 'shards.json', {
      ...config,
      sink: { ...config.sink, options: { directory: 'out-shards', shards: '8x' } },
    });
    expect(await refused(file, 'out-shards')).toBe(
      // The sink's own message, as tfrecordSink gives it in code (one definition of its options).
      `tfpipe run: tfrecordSink option shards: expected a whole number ≥ 1, got "8x" in shards.json [INVALID_OPTION]`.replace(
        'shards.json',
        file,
      ),
    );
  });

  it('unknown keys, at the top and inside plugin options', async () => {
    const top = await writeConfig(directory, 'top.json', { ...base('out-top'), shufle: { seed: 1 } });
    expect(await refused(top, 'out-top')).toContain('tfpipe run: shufle: unknown key');
    const inner = await writeConfig(directory, 'inner.json', {
      ...base('out-inner'),
      source: { plugin: 'csv', options: { path: 'people.csv', delimeter: ';' } },
    });
    expect(await refused(inner, 'out-inner')).toContain(
      `tfpipe run: csvSource option delimeter: unknown option in ${inner} [INVALID_OPTION]`,
    );
  });

  it('an unknown plugin', async () => {
    const file = await writeConfig(directory, 'plugin.json', {
      ...base('out-plugin'),
      source: { plugin: '@acme/no-such-plugin' },
    });
    expect(await refused(file, 'out-plugin')).toMatch(
      /^tfpipe run: source\.plugin: unknown plugin "@acme\/no-such-plugin" .*: not one of csv, parquet, images, tfrecord, jsonl .*\[UNKNOWN_PLUGIN\]$/,
    );
  });

  it('a filter expression that does not parse, with its column', async () => {
    const file = await writeConfig(directory, 'filter.json', {
      ...base('out-filter'),
      transforms: [{ take: 5 }, { filter: 'age >= )' }],
    });
    expect(await refused(file, 'out-filter')).toContain(
      'tfpipe run: transforms[1].filter: expected a number, a string, true, false or null, got ")" at column 8 of "age >= )"',
    );
  });

  it('split ratios that do not sum to 1', async () => {
    const file = await writeConfig(directory, 'ratios.json', {
      ...base('out-ratios'),
      split: { key: 'id', ratios: { train: 0.8, validation: 0.1, test: 0.05 } },
    });
    expect(await refused(file, 'out-ratios')).toMatch(
      /split ratios must sum to 1, got 0\.8 \+ 0\.1 \+ 0\.05 = 0\.95 .*\[SPLIT\]$/,
    );
  });

  it('a key column missing from a row: the row named, no shard left; skipped and counted under skip', async () => {
    const csv = peopleCsv(20).replace('\np7,', '\n,');
    await writeFile(join(directory, 'holes.csv'), csv);
    const config = {
      source: { plugin: 'csv', options: { path: 'holes.csv' } },
      split: { key: 'id', ratios: { train: 0.5, test: 0.5 } },
      sink: { plugin: 'tfrecord', options: { directory: 'out-holes' } },
    };
    const file = await writeConfig(directory, 'holes.json', config);
    const result = await tfpipe(['run', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^tfpipe run: split key "id" is missing or not a single value at row 7 \(line 9, field "id"\) of .*holes\.csv \[SPLIT\]\n$/,
    );
    expect(await readdir(join(directory, 'out-holes')).catch(() => [])).toEqual([]);
    const skipping = await writeConfig(directory, 'holes-skip.json', { ...config, onError: 'skip' });
    const skipped = await tfpipe(['run', skipping, '--json']);
    expect(skipped.code).toBe(0);
    expect(JSON.parse(skipped.stdout)).toMatchObject({ recordsWritten: 19, skipped: 1 });
  });

  it('existing output of the same prefix, unless --overwrite; another prefix is never touched', async () => {
    const out = join(directory, 'out-full');
    await mkdir(out);
    await writeFile(join(out, 'old-00000-of-00002.tfrecord'), 'old');
    await writeFile(join(out, 'old-00001-of-00002.tfrecord'), 'old');
    await writeFile(join(out, 'data-00000-of-00002.tfrecord'), 'old');
    await writeFile(join(out, 'data-00001-of-00002.tfrecord'), 'old');
    const file = await writeConfig(directory, 'full.json', base('out-full'));
    const result = await tfpipe(['run', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `tfpipe run: output already exists (pass --overwrite to replace it) in ${join(out, 'data-00000-of-00002.tfrecord')} [OUTPUT_EXISTS]\n`,
    );
    const replaced = await tfpipe(['run', file, '--overwrite']);
    expect(replaced.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual([
      'data-00000-of-00001.tfrecord',
      'old-00000-of-00002.tfrecord',
      'old-00001-of-00002.tfrecord',
      'reader_spec.py',
    ]);
    expect(replaced.stdout).toContain('removed 2 old file(s)');
  });
});

import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesList, example, floatList, int64List, type Example } from '@tfpipe/core';
import { createTfrecordWriter } from '@tfpipe/sink-tfrecord';
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Writable } from 'node:stream';
import { BIN, tfpipe } from './__fixtures__/run-cli.js';
import { main } from './main.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const NAMES = [
  utf8('plain'),
  utf8('a,b'),
  utf8('say "hi"'),
  utf8('two\r\nlines'),
  new Uint8Array([0xff, 0x00, 0x22]),
  utf8(''),
];
const IDS = [2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n + 1n, 0n, -1n, 42n];
const SCORES = [0.1, -0, Infinity, 3.4028234663852886e38, 1e-45, -2.5];

/** The records, as written: the expected values come from here, not from the parser under test. */
const RECORDS: Example[] = IDS.map((id, index) =>
  example({
    id: int64List([id]),
    score: floatList([SCORES[index]!]),
    name: bytesList([NAMES[index]!]),
    tags: bytesList(Array.from({ length: index % 4 }, (_, tag) => `t${tag},"${index}"`)),
    vec: floatList([index, index / 2, -index]),
    counts: int64List(index % 2 === 0 ? [2n ** 62n + BigInt(index)] : []),
    small: int64List([index - 3]),
  }),
);

const SPEC = {
  features: {
    id: { type: 'fixedLen', shape: [], dtype: 'int64' },
    score: { type: 'fixedLen', shape: [], dtype: 'float32' },
    name: { type: 'fixedLen', shape: [], dtype: 'string' },
    tags: { type: 'varLen', dtype: 'string' },
    vec: { type: 'fixedLen', shape: [3], dtype: 'float32' },
    counts: { type: 'ragged', dtype: 'int64' },
    small: { type: 'fixedLen', shape: [], dtype: 'int32' },
  },
};

let directory: string;
const path = (name: string): string => join(directory, name);
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-cli-export-'));
  // Two files, read in order: the rows are the records of both.
  for (const [file, records] of [
    ['a.tfrecord', RECORDS.slice(0, 4)],
    ['b.tfrecord', RECORDS.slice(4)],
  ] as const) {
    const writer = await createTfrecordWriter({ path: path(file) });
    for (const record of records) await writer.write(record);
    await writer.close();
  }
  await writeFile(path('spec.json'), JSON.stringify(SPEC));
  await writeFile(path('empty.tfrecord'), new Uint8Array(0));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const INPUTS = () => [path('a.tfrecord'), path('b.tfrecord')];
const values = (record: Example, name: string): unknown[] => [...(record.features[name]?.value ?? [])];

describe('tfpipe export', () => {
  test('Parquet: hyparquet reads back every value, int64 exact, lists as lists, one row group per --row-group', async () => {
    const result = await tfpipe([
      'export',
      ...INPUTS(),
      path('out.parquet'),
      '--spec',
      path('spec.json'),
      '--row-group',
      '4',
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('exported 6 rows of 2 files to');
    expect(result.stdout).toContain('(parquet, 2 row groups)');
    const file = await asyncBufferFromFile(path('out.parquet'));
    const metadata = await parquetMetadataAsync(file);
    expect(metadata.row_groups.map((group) => group.num_rows)).toEqual([4n, 2n]);
    const rows = (await parquetReadObjects({ file, utf8: false })) as Record<string, unknown>[];
    expect(rows).toHaveLength(RECORDS.length);
    RECORDS.forEach((record, index) => {
      const row = rows[index]!;
      expect(Object.keys(row)).toEqual(Object.keys(SPEC.features));
      expect(row.id).toBe(IDS[index]);
      expect(row.score).toBe(Math.fround(SCORES[index]!));
      expect(Buffer.compare(row.name as Uint8Array, NAMES[index]!)).toBe(0);
      expect((row.tags as Uint8Array[]).map((tag) => Buffer.from(tag).toString())).toEqual(
        values(record, 'tags').map((tag) => Buffer.from(tag as Uint8Array).toString()),
      );
      expect(row.vec).toEqual(values(record, 'vec').map((value) => Math.fround(value as number)));
      expect(row.counts).toEqual(values(record, 'counts'));
      expect(row.small).toBe(index - 3);
    });
  });

  test('CSV: RFC 4180, bytes as they are (quoted when they hold a comma, quote, CR or LF), lists as JSON arrays', async () => {
    const spec = {
      features: {
        id: SPEC.features.id,
        name: SPEC.features.name,
        score: SPEC.features.score,
        tags: SPEC.features.tags,
      },
    };
    await writeFile(path('csv-spec.json'), JSON.stringify(spec));
    const result = await tfpipe([
      'export',
      ...INPUTS(),
      path('out.csv'),
      '--spec',
      path('csv-spec.json'),
      '--row-group',
      '5',
    ]);
    expect(result.code).toBe(0);
    // Written by hand from RFC 4180 and the records above.
    const expected = Buffer.concat([
      Buffer.from('id,name,score,tags\r\n'),
      Buffer.from('9223372036854775807,plain,0.1,[]\r\n'),
      Buffer.from('-9223372036854775808,"a,b",-0,"[""t0,\\""1\\""""]"\r\n'),
      Buffer.from('9007199254740993,"say ""hi""",Infinity,"[""t0,\\""2\\"""",""t1,\\""2\\""""]"\r\n'),
      Buffer.from(
        '0,"two\r\nlines",3.4028235e+38,"[""t0,\\""3\\"""",""t1,\\""3\\"""",""t2,\\""3\\""""]"\r\n',
      ),
      Buffer.from('-1,"'),
      Buffer.from([0xff, 0x00, 0x22, 0x22]),
      Buffer.from('",1e-45,[]\r\n'),
      Buffer.from('42,,-2.5,"[""t0,\\""5\\""""]"\r\n'),
    ]);
    const written = await readFile(path('out.csv'));
    expect(written.toString('latin1')).toBe(expected.toString('latin1'));
  });

  test('CSV: a list of bytes that are not UTF-8 fails naming the row and the feature, and leaves no file', async () => {
    const writer = await createTfrecordWriter({ path: path('binary-list.tfrecord') });
    await writer.write(example({ blobs: bytesList(['ok']) }));
    await writer.write(example({ blobs: bytesList([new Uint8Array([0xc3])]) }));
    await writer.close();
    await writeFile(path('blobs.json'), '{"features":{"blobs":{"type":"varLen","dtype":"string"}}}');
    const result = await tfpipe([
      'export',
      path('binary-list.tfrecord'),
      path('blobs.csv'),
      '--spec',
      path('blobs.json'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/not UTF-8 text has no CSV form.*row 1.*field "?blobs/);
    await expect(stat(path('blobs.csv'))).rejects.toThrow();
  });

  test('JSON Lines: int64 as exact JSON numbers, bytes as base64, floats as float32 reads them', async () => {
    const result = await tfpipe(['export', ...INPUTS(), path('out.jsonl'), '--spec', path('spec.json')]);
    expect(result.code).toBe(0);
    const lines = (await readFile(path('out.jsonl'), 'utf8')).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(RECORDS.length);
    lines.forEach((line, index) => {
      const record = RECORDS[index]!;
      // The integers' digits, read from the text: JSON.parse would round them.
      expect(BigInt(/"id":(-?\d+),/.exec(line)![1]!)).toBe(IDS[index]);
      const counts = /"counts":\[([-\d,]*)\]/.exec(line)![1]!;
      expect(counts === '' ? [] : counts.split(',').map(BigInt)).toEqual(values(record, 'counts'));
      const parsed = JSON.parse(line) as Record<string, unknown>;
      expect(Object.keys(parsed)).toEqual(Object.keys(SPEC.features));
      const score = Math.fround(SCORES[index]!);
      // The shortest decimal that reads back as the same float32.
      const asFloat32 = (value: unknown) => (typeof value === 'number' ? Math.fround(value) : value);
      expect(asFloat32(parsed.score)).toEqual(Number.isFinite(score) ? score : String(score));
      expect(Buffer.from(parsed.name as string, 'base64').equals(Buffer.from(NAMES[index]!))).toBe(true);
      expect((parsed.tags as string[]).map((tag) => Buffer.from(tag, 'base64').toString())).toEqual(
        values(record, 'tags').map((tag) => Buffer.from(tag as Uint8Array).toString()),
      );
      expect((parsed.vec as number[]).map(asFloat32)).toEqual(
        values(record, 'vec').map((value) => Math.fround(value as number)),
      );
      expect(parsed.small).toBe(index - 3);
    });
    expect(lines[0]).toContain('"score":0.1,');
    expect(lines[1]).toContain('"score":-0,');
    expect(lines[2]).toContain('"score":"Infinity",');
  });

  test('empty input: a Parquet file of 0 rows with the columns, a CSV of the header, an empty JSON Lines file', async () => {
    const args = (out: string) => ['export', path('empty.tfrecord'), path(out), '--spec', path('spec.json')];
    for (const out of ['empty.parquet', 'empty.csv', 'empty.jsonl'])
      expect((await tfpipe(args(out))).code).toBe(0);
    const file = await asyncBufferFromFile(path('empty.parquet'));
    expect((await parquetMetadataAsync(file)).num_rows).toBe(0n);
    expect(await parquetReadObjects({ file })).toEqual([]);
    expect(await readFile(path('empty.csv'), 'utf8')).toBe('id,score,name,tags,vec,counts,small\r\n');
    expect(await readFile(path('empty.jsonl'), 'utf8')).toBe('');
  });

  test('bad specs are usage errors naming the JSON path or the feature; nothing is written', async () => {
    const bad = async (spec: unknown, pattern: RegExp) => {
      await writeFile(path('bad.json'), typeof spec === 'string' ? spec : JSON.stringify(spec));
      const result = await tfpipe([
        'export',
        path('a.tfrecord'),
        path('bad.parquet'),
        '--spec',
        path('bad.json'),
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(pattern);
      await expect(stat(path('bad.parquet'))).rejects.toThrow();
    };
    await bad(
      { features: { id: { type: 'fixedLen', shape: [0], dtype: 'int64' } } },
      /^tfpipe export: --spec \$\.features\.id\.shape\[0\]: expected a positive whole number, got 0.*bad\.json/,
    );
    await bad('{"features":', /^tfpipe export: --spec the spec is not JSON/);
    await bad(
      { features: { s: { type: 'fixedLenSequence', shape: [], dtype: 'int64', allowMissing: true } } },
      /fixedLenSequence has no one-column form.*field "?s/,
    );
    await bad({ features: {} }, /--spec names no features/);
    await bad({ features: {}, featureLists: {} }, /export reads Examples/);
    const missing = await tfpipe(['export', path('a.tfrecord'), path('x.csv')]);
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.stderr).toMatch(/--spec FILE is required/);
    const noSpecFile = await tfpipe([
      'export',
      path('a.tfrecord'),
      path('x.csv'),
      '--spec',
      path('nope.json'),
    ]);
    expect(noSpecFile.stderr).toMatch(/--spec: cannot read the spec file/);
    const extension = await tfpipe([
      'export',
      path('a.tfrecord'),
      path('x.txt'),
      '--spec',
      path('spec.json'),
    ]);
    expect(extension).toMatchObject({ code: 2 });
    expect(extension.stderr).toMatch(/OUT must end in \.parquet, \.csv or \.jsonl/);
  });

  test("a feature of the wrong kind fails with TensorFlow's message, the file and the record; no output", async () => {
    await writeFile(
      path('wrong.json'),
      JSON.stringify({
        features: { ...SPEC.features, small: { type: 'fixedLen', shape: [], dtype: 'float32' } },
      }),
    );
    const result = await tfpipe(['export', ...INPUTS(), path('wrong.parquet'), '--spec', path('wrong.json')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Key: small, Index: 0\. {1,2}Data types don't match/);
    expect(result.stderr).toContain('a.tfrecord');
    await expect(stat(path('wrong.parquet'))).rejects.toThrow();
    expect((await readdir(directory)).filter((name) => name.includes('tfpipe-tmp'))).toEqual([]);
  });

  test('refuses to replace a file without --overwrite, and never writes over an input or the spec', async () => {
    await writeFile(path('exists.csv'), 'keep me');
    const refused = await tfpipe([
      'export',
      path('a.tfrecord'),
      path('exists.csv'),
      '--spec',
      path('spec.json'),
    ]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/OUT would replace an existing file.*--overwrite/);
    expect(await readFile(path('exists.csv'), 'utf8')).toBe('keep me');
    expect(
      (
        await tfpipe([
          'export',
          path('a.tfrecord'),
          path('exists.csv'),
          '--spec',
          path('spec.json'),
          '--overwrite',
        ])
      ).code,
    ).toBe(0);
    expect(await readFile(path('exists.csv'), 'utf8')).toMatch(/^id,score,name/);
    await writeFile(path('spec.jsonl'), JSON.stringify(SPEC));
    const self = await tfpipe([
      'export',
      path('a.tfrecord'),
      path('spec.jsonl'),
      '--spec',
      path('spec.jsonl'),
      '--overwrite',
    ]);
    expect(self.stderr).toMatch(/OUT names an input of this run/);
  });

  test('a damaged record in the second file: exit 1 naming it, no OUT and no temporary file left', async () => {
    const damaged = Buffer.from(await readFile(path('b.tfrecord')));
    damaged[damaged.length - 6]! ^= 0xff;
    await writeFile(path('damaged.tfrecord'), damaged);
    const result = await tfpipe([
      'export',
      path('a.tfrecord'),
      path('damaged.tfrecord'),
      path('damaged.parquet'),
      '--spec',
      path('spec.json'),
      '--row-group',
      '1',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/damaged\.tfrecord/);
    await expect(stat(path('damaged.parquet'))).rejects.toThrow();
    expect((await readdir(directory)).filter((name) => name.includes('tfpipe-tmp'))).toEqual([]);
  });

  test('odd column names: __proto__, dots, quotes and slashes are columns like any other', async () => {
    const names = ['__proto__', 'a.b', 'x y/"z"', 'constructor'];
    const writer = await createTfrecordWriter({ path: path('odd.tfrecord') });
    for (let index = 0; index < 3; index++) {
      await writer.write(
        example(Object.fromEntries(names.map((name, column) => [name, int64List([index * 10 + column])]))),
      );
    }
    await writer.close();
    const spec = Object.fromEntries(names.map((name) => [name, { type: 'varLen', dtype: 'int64' }]));
    await writeFile(path('odd.json'), JSON.stringify({ features: spec }));
    for (const out of ['odd.parquet', 'odd.jsonl']) {
      expect(
        (await tfpipe(['export', path('odd.tfrecord'), path(out), '--spec', path('odd.json')])).code,
      ).toBe(0);
    }
    const file = await asyncBufferFromFile(path('odd.parquet'));
    const schema = (await parquetMetadataAsync(file)).schema.map((element) => element.name);
    expect(schema.filter((name) => names.includes(name))).toEqual(names);
    // Rows as arrays: a reader's row objects cannot hold a `__proto__` key.
    let rows: unknown[][] = [];
    await parquetRead({ file, rowFormat: 'array', onComplete: (data) => (rows = data as unknown[][]) });
    expect(rows).toEqual([0, 1, 2].map((index) => names.map((_, column) => [BigInt(index * 10 + column)])));
    const lines = (await readFile(path('odd.jsonl'), 'utf8')).trim().split('\n');
    expect(lines[2]).toBe('{"__proto__":[20],"a.b":[21],"x y/\\"z\\"":[22],"constructor":[23]}');
  });

  test('progress: one redrawn line on a terminal, none with --quiet', async () => {
    const run = async (extra: string[]) => {
      let text = '';
      const stderr = Object.assign(
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            text += chunk.toString();
            done();
          },
        }),
        { isTTY: true },
      );
      const stdout = new Writable({ write: (_chunk, _encoding, done) => done() });
      const args = [
        'export',
        ...INPUTS(),
        path('progress.csv'),
        '--spec',
        path('spec.json'),
        '--row-group',
        '2',
      ];
      expect(await main([...args, '--overwrite', ...extra], { stdout, stderr, cwd: directory })).toBe(0);
      return text;
    };
    const shown = await run([]);
    expect(shown).toContain('\r\u001b[2K2 records');
    expect(shown).toContain('\r\u001b[2K6 records');
    expect(shown.endsWith('\r\u001b[2K')).toBe(true);
    expect(await run(['--quiet'])).toBe('');
  });

  test('relative FILE, OUT and --spec paths are read against the working directory', async () => {
    const result = await tfpipe(['export', 'a.tfrecord', 'relative.jsonl', '--spec', 'spec.json'], {
      cwd: directory,
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect((await readFile(path('relative.jsonl'), 'utf8')).split('\n')).toHaveLength(5);
    const head = await tfpipe(['head', 'a.tfrecord', '--spec', 'spec.json', '-n', '1'], { cwd: directory });
    expect(head).toMatchObject({ code: 0, stderr: '' });
  });

  test.each([
    ['SIGKILL', true],
    ['SIGINT', false],
    ['SIGTERM', false],
  ] as const)(
    'killed by %s while writing, it leaves no file under the final name',
    async (signal, leavesTemporary) => {
      // Enough rows that the export is still writing when its temporary file appears.
      if ((await stat(path('many.tfrecord')).catch(() => undefined)) === undefined) {
        const writer = await createTfrecordWriter({ path: path('many.tfrecord') });
        for (let index = 0; index < 200_000; index++) await writer.write(RECORDS[index % RECORDS.length]!);
        await writer.close();
      }
      const child = spawn(
        process.execPath,
        [
          BIN,
          'export',
          path('many.tfrecord'),
          path('killed.parquet'),
          '--spec',
          path('spec.json'),
          '--row-group',
          '1000',
        ],
        { stdio: 'ignore' },
      );
      const exited = new Promise((resolve) => child.once('exit', resolve));
      let seen = false;
      while (!seen && child.exitCode === null) {
        seen = (await readdir(directory)).some((name) => name.startsWith('.killed.parquet.tfpipe-tmp'));
        if (!seen) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      child.kill(signal);
      await exited;
      // Only meaningful if it was caught mid-write; a run that finished first would have renamed it.
      expect(seen).toBe(true);
      expect(child.signalCode).toBe(signal);
      await expect(stat(path('killed.parquet'))).rejects.toThrow();
      const left = (await readdir(directory)).filter((name) => name.startsWith('.killed.parquet.tfpipe-tmp'));
      expect(left.length > 0).toBe(leavesTemporary);
      for (const name of left) await rm(path(name));
    },
    300_000,
  );
});

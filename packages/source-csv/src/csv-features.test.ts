import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { positionOf, reportOf } from '@tfpipe/core';
import { describe, expect, test } from 'vitest';
import { collect, withTempDir, writeTemp } from './__fixtures__/test-support.js';
import { csvExampleSpec, csvFeatures, csvToExamples, inferCsvSchema } from './csv-features.js';
import { loadSchema, saveSchema } from './csv-schema.js';
import { saveVocabularies } from './vocabulary.js';

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

function streamOf(csv: string): ReadableStream<Uint8Array> {
  return new Blob([csv]).stream();
}

describe('values', () => {
  test('int64 is exact over the full range', async () => {
    const rows = await collect(
      csvFeatures({
        stream: streamOf('n\n9007199254740993\n-9223372036854775808\n9223372036854775807\n+7\n'),
      }),
    );
    expect(rows.map((row) => row.n!.value[0])).toEqual([
      9007199254740993n,
      -9223372036854775808n,
      9223372036854775807n,
      7n,
    ]);
    expect(rows.every((row) => row.n!.kind === 'int64')).toBe(true);
  });

  test('floats take exponents, NaN, inf/Infinity spellings, a leading + and Python-style underscores', async () => {
    const rows = await collect(
      csvFeatures({
        stream: streamOf('x\n1.5e3\nNaN\ninf\n-Infinity\n+2.5\n.5\n1_000.5\n'),
        schema: { x: 'float' },
      }),
    );
    expect(rows.map((row) => row.x!.value[0])).toEqual([
      1500,
      Number.NaN,
      Infinity,
      -Infinity,
      2.5,
      0.5,
      1000.5,
    ]);
  });

  test('declared boolean int64 columns map true/false to 1/0', async () => {
    const rows = await collect(
      csvFeatures({
        stream: streamOf('b\ntrue\nFALSE\n1\n'),
        schema: { b: { kind: 'int64', boolean: true } },
      }),
    );
    expect(rows.map((row) => row.b!.value[0])).toEqual([1n, 0n, 1n]);
  });

  test("empty cells: 'omit' leaves the feature out, 'empty' writes an empty list, 'default' the default, 'kindless' a kindless feature", async () => {
    const csv = 'a,b,c,d,e\n,,,,1\n';
    const [row] = await collect(
      csvFeatures({
        stream: streamOf(csv),
        schema: {
          a: 'int64',
          b: { kind: 'float', missing: 'empty' },
          c: { kind: 'int64', missing: 'default', default: '-1' },
          d: { kind: 'bytes', missing: 'kindless' },
        },
      }),
    );
    expect(row!.a).toBeUndefined();
    expect(row!.b).toEqual({ kind: 'float', value: [] });
    expect(row!.c).toEqual({ kind: 'int64', value: [-1n] });
    expect(row!.d).toEqual({ kind: 'none', value: [] });
  });

  test('multi-valued cells split by a separator into lists', async () => {
    const [row] = await collect(
      csvFeatures({
        stream: streamOf('tags,ids\n"a|b|c",1;2;3\n'),
        schema: { tags: { kind: 'bytes', split: '|' }, ids: { kind: 'int64', split: ';' } },
      }),
    );
    expect((row!.tags!.value as Uint8Array[]).map(text)).toEqual(['a', 'b', 'c']);
    expect(row!.ids!.value).toEqual([1n, 2n, 3n]);
  });

  test('columns are renamed, dropped and kept', async () => {
    const [row] = await collect(
      csvFeatures({ stream: streamOf('a,b,c\n1,2,3\n'), columns: { rename: { a: 'alpha' }, drop: ['b'] } }),
    );
    expect(Object.keys(row!)).toEqual(['alpha', 'c']);
    const [kept] = await collect(
      csvFeatures({ stream: streamOf('a,b,c\n1,2,3\n'), columns: { keep: ['b'] } }),
    );
    expect(Object.keys(kept!)).toEqual(['b']);
  });
});

describe('schema inference', () => {
  test('widens int64 → float → bytes, integers beyond int64 become bytes, empty cells do not count (TFX rules)', async () => {
    const csv = 'i,f,s,big,empty\n1,1,1,1,\n2,2.5,x,9223372036854775808,\n,3,2.0,3,\n';
    const stream = csvFeatures({ stream: streamOf(csv) });
    const rows = await collect(stream);
    const schema = reportOf(stream)!.details!.schema as { columns: Record<string, { kind: string }> };
    expect(
      Object.fromEntries(Object.entries(schema.columns).map(([name, column]) => [name, column.kind])),
    ).toEqual({
      i: 'int64',
      f: 'float',
      s: 'bytes',
      big: 'bytes',
      empty: 'bytes',
    });
    expect(rows).toHaveLength(3);
  });

  test('the sampled rows are written, and a later value that does not fit is a CSV_VALUE record error', async () => {
    const skipped: unknown[] = [];
    const stream = csvFeatures({
      stream: streamOf('n\n1\n2\n3.5\n4\n'),
      inferRows: 2,
      onError: 'skip',
      onSkip: (error) => skipped.push(error),
    });
    const rows = await collect(stream);
    expect(rows.map((row) => row.n!.value[0])).toEqual([1n, 2n, 4n]);
    expect(rows.map((row) => positionOf(row)?.line)).toEqual([2, 3, 5]);
    expect(skipped).toMatchObject([{ code: 'CSV_VALUE', position: { line: 4, column: 1, field: 'n' } }]);
    expect(reportOf(stream)).toMatchObject({ records: 3, skipped: 1, details: { inferredFromRows: 2 } });
  });

  test("inferRows: 'all' reads the whole file first, so a float after the sample widens the column", async () => {
    await withTempDir(async (directory) => {
      const file = await writeTemp(
        directory,
        'n.csv',
        `n\n${Array.from({ length: 2000 }, (_, index) => index).join('\n')}\n0.5\n`,
      );
      const schema = await inferCsvSchema({ path: file, inferRows: 'all' });
      expect(schema.columns.n!.kind).toBe('float');
      expect((await inferCsvSchema({ path: file })).columns.n!.kind).toBe('int64');
    });
  });

  test('a saved schema loads back and fixes every column: a second run reads no sample', async () => {
    await withTempDir(async (directory) => {
      const file = await writeTemp(directory, 'd.csv', 'a,b\n1,x\n2,y\n');
      const schema = await inferCsvSchema({ path: file });
      const schemaFile = path.join(directory, 'schema.json');
      await saveSchema(schemaFile, schema);
      const loaded = await loadSchema(schemaFile);
      expect(loaded).toEqual(schema);
      const stream = csvFeatures({ path: file, schema: loaded });
      expect(await collect(stream)).toHaveLength(2);
      expect(reportOf(stream)!.details!.inferredFromRows).toBe(0);
      expect(csvExampleSpec(loaded)).toEqual({ a: 'int64', b: 'bytes' });
      const extra = await writeTemp(directory, 'e.csv', 'a,b,c\n1,x,3\n');
      await expect(collect(csvFeatures({ path: extra, schema: loaded }))).rejects.toMatchObject({
        code: 'CSV_HEADER',
      });
    });
  });
});

describe('vocabularies', () => {
  test('a string label column gets a vocabulary built from the whole input, sorted, saved one value per line', async () => {
    await withTempDir(async (directory) => {
      const file = await writeTemp(directory, 'l.csv', 'x,label\n1,dog\n2,cat\n3,émeu\n4,dog\n5,ant\n');
      const stream = csvToExamples({ path: file, label: 'label', inferRows: 2 });
      const examples = await collect(stream);
      expect(examples.map((example) => example.features.label!.value[0])).toEqual([2n, 1n, 3n, 2n, 0n]);
      const details = reportOf(stream)!.details!;
      expect(details.vocabularies).toEqual({ label: ['ant', 'cat', 'dog', 'émeu'] });
      const [written] = await saveVocabularies(path.join(directory, 'out'), details.schema as never);
      expect(await readFile(written!, 'utf8')).toBe('ant\ncat\ndog\némeu\n');
    });
  });

  test('a given vocabulary maps values to ids; an unknown value is CSV_VALUE', async () => {
    const schema = { c: { vocabulary: ['red', 'green'] } };
    const rows = await collect(csvFeatures({ stream: streamOf('c\ngreen\nred\n'), schema }));
    expect(rows.map((row) => row.c!.value[0])).toEqual([1n, 0n]);
    await expect(collect(csvFeatures({ stream: streamOf('c\nblue\n'), schema }))).rejects.toMatchObject({
      code: 'CSV_VALUE',
      position: { line: 2, column: 1, field: 'c' },
    });
  });

  test('an empty label is a CSV_VALUE error', async () => {
    await expect(
      collect(csvFeatures({ stream: streamOf('x,y\n1,2\n2,\n'), label: 'y' })),
    ).rejects.toMatchObject({
      code: 'CSV_VALUE',
      position: { line: 3, field: 'y' },
    });
  });
});

// What inference keeps: a column is inferred as a number only when the number keeps the cell's
// meaning (leading zeros, floats float32 cannot hold stay bytes), and a declared float column
// refuses a number float32 cannot hold instead of storing Infinity or 0. Real CSV files on disk.
import { reportOf } from '@tfpipe/core';
import type { Example } from '@tfpipe/core';
import { describe, expect, test } from 'vitest';
import { collect, failure, withTempDir, writeTemp } from './__fixtures__/test-support.js';
import { csvToExamples } from './csv-features.js';
import type { CsvFeaturesOptions } from './csv-features.js';

const text = (value: unknown): string => new TextDecoder().decode(value as Uint8Array);

/** Converts `csv` (written to a file) and returns the examples and the inferred schema's kinds. */
async function convert(
  csv: string,
  options: Omit<CsvFeaturesOptions, 'path' | 'batchSize'> = {},
): Promise<{ examples: Example[]; kinds: Record<string, string> }> {
  return withTempDir(async (directory) => {
    const file = await writeTemp(directory, 'data.csv', csv);
    const stream = csvToExamples({ ...options, path: file });
    const examples = await collect(stream);
    const schema = reportOf(stream)!.details!.schema as { columns: Record<string, { kind: string }> };
    const kinds = Object.fromEntries(Object.entries(schema.columns).map(([name, spec]) => [name, spec.kind]));
    return { examples, kinds };
  });
}

describe('inference keeps every cell', () => {
  test('a column with leading zeros (ZIP code 02134, 007, -01) is bytes, text kept; 0, -0, 0.5 stay numbers', async () => {
    const { examples, kinds } = await convert('zip,code,n,x\n02134,007,0,0.5\n10001,-01,-0,-0\n');
    expect(kinds).toEqual({ zip: 'bytes', code: 'bytes', n: 'int64', x: 'float' });
    expect(examples.map((example) => text(example.features.zip!.value[0]))).toEqual(['02134', '10001']);
    expect(examples.map((example) => text(example.features.code!.value[0]))).toEqual(['007', '-01']);
  });

  test('a column holding 1e309 or -1e-400 is bytes, text kept (TFX stores inf and 0)', async () => {
    const { examples, kinds } = await convert('big,tiny,ok\n1.5,2.5,1e38\n1e309,-1e-400,-1e-45\n');
    expect(kinds).toEqual({ big: 'bytes', tiny: 'bytes', ok: 'float' });
    expect(examples.map((example) => text(example.features.big!.value[0]))).toEqual(['1.5', '1e309']);
    expect(examples.map((example) => text(example.features.tiny!.value[0]))).toEqual(['2.5', '-1e-400']);
  });

  test('1e39 (fine as a double, Infinity as float32) is bytes too; inf, nan and 0e5 spelled out stay float', async () => {
    const { kinds } = await convert('a,b\n1e39,inf\n2,nan\n3,0e5\n');
    expect(kinds).toEqual({ a: 'bytes', b: 'float' });
  });

  test('a schema can still ask for int64: 02134 is then 2134', async () => {
    const { examples } = await convert('zip\n02134\n', { schema: { zip: 'int64' } });
    expect(examples[0]!.features.zip!.value).toEqual([2134n]);
  });
});

describe('a declared float column refuses what float32 cannot hold', () => {
  test.each([
    ['1e309', 'is beyond the float32 range (±3.4028235e+38): it would be stored as Infinity'],
    ['-1e39', 'is beyond the float32 range (±3.4028235e+38): it would be stored as -Infinity'],
    ['-1e-400', 'is too close to zero for float32 (under 1.4e-45): it would be stored as 0'],
  ])('%s is CSV_VALUE naming file, line and column', async (cell, reason) => {
    await withTempDir(async (directory) => {
      const file = await writeTemp(directory, 'floats.csv', `id,x\n1,0.5\n2,${cell}\n`);
      const error = await failure(csvToExamples({ path: file, schema: { id: 'int64', x: 'float' } }));
      expect(error.code).toBe('CSV_VALUE');
      expect(error.position).toMatchObject({ file, line: 3, column: 2, field: 'x' });
      expect(error.message).toContain(`"${cell}" ${reason}`);
    });
  });

  test("under onError 'skip' only that row is dropped; inf, -0 and 1e-45 are kept", async () => {
    const { examples } = await convert('x\n1e309\ninf\n-0\n1e-45\n', {
      schema: { x: 'float' },
      onError: 'skip',
    });
    expect(examples.map((example) => example.features.x!.value[0])).toEqual([
      Infinity,
      -0,
      Math.fround(1e-45),
    ]);
  });
});

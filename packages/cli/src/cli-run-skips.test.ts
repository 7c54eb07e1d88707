import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tfpipe } from './__fixtures__/run-cli.js';

let directory: string;
const ROWS = 1600;
const SHARDS = 4;
/** Bad rows, spread so that they fall in several units and work indexes (and in the parts of the last ones). */
const BAD = [1, 2, 420, 799, 1210, 1599];

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-cli-skips-'));
  // CSV: a bad row has a cell too many or too few (CSV_ROW_LENGTH, the source's); quoted newlines make lines differ from rows.
  const lines = ['id,text'];
  for (let id = 0; id < ROWS; id++) {
    const text = id % 7 === 0 ? `"two\nlines ${id}"` : `plain ${id}`;
    const bad = id % 2 === 0 ? `${id},${text},extra` : `${id}`;
    lines.push(BAD.includes(id) ? bad : `${id},${text}`);
  }
  await writeFile(join(directory, 'rows.csv'), `${lines.join('\n')}\n`);
  // Parquet, 16 row groups of 100: a bad row has no split key (SPLIT, the split's).
  const parquet = parquetWriteBuffer({
    rowGroupSize: 100,
    columnData: [
      { name: 'id', data: Array.from({ length: ROWS }, (_, id) => BigInt(id)), type: 'INT64' },
      {
        name: 'fold',
        data: Array.from({ length: ROWS }, (_, id) =>
          BAD.includes(id) ? null : id % 5 === 0 ? 'test' : 'train',
        ),
        type: 'STRING',
      },
    ],
  });
  await writeFile(join(directory, 'rows.parquet'), new Uint8Array(parquet));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

interface Reported {
  readonly skipped: number;
  readonly skippedErrors: readonly { code: string; message: string; position: object }[];
}

/** `tfpipe ...args --json` in the test directory: its one JSON line. */
async function json(args: readonly string[]): Promise<Reported> {
  const result = await tfpipe([...args, '--json'], { cwd: directory });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Reported;
}

/** What `tfpipe run` plain, on 1 and 2 workers, and plan + work on each index + finalize report. */
async function everyWay(name: string, source: string, split = ''): Promise<Record<string, Reported>> {
  const file = async (way: string): Promise<string> => {
    await writeFile(
      join(directory, `${name}-${way}.yaml`),
      `${source}\n${split}onError: skip\nsink:\n  plugin: tfrecord\n  options: { directory: ${name}-${way}, shards: ${SHARDS} }\n`,
    );
    return `${name}-${way}.yaml`;
  };
  const plain = await json(['run', await file('plain')]);
  const one = await json(['run', await file('one'), '--workers', '1']);
  const two = await json(['run', await file('two'), '--workers', '2']);
  const planned = await tfpipe(
    ['plan', await file('steps'), '--shards', String(SHARDS), '--out', `${name}.plan.json`],
    {
      cwd: directory,
    },
  );
  expect(planned.code, planned.stderr).toBe(0);
  // Each index says what it skipped; together, what finalize says.
  let worked = 0;
  for (let index = 0; index < SHARDS; index++) {
    const work = await tfpipe(['work', `${name}.plan.json`, '--index', String(index)], { cwd: directory });
    expect(work.code, work.stderr).toBe(0);
    worked += Number(/skipped (\d+) bad record/.exec(work.stdout)?.[1] ?? 0);
  }
  const steps = await json(['finalize', `${name}.plan.json`]);
  expect(worked).toBe(steps.skipped);
  return { plain, one, two, steps };
}

/** Each way's report equals the plain run's: the count, and each error's code, message and position. */
function expectSameAsPlain(ways: Record<string, Reported>, code: string): void {
  expect(ways.plain!.skipped).toBe(BAD.length);
  expect(ways.plain!.skippedErrors.map((error) => error.code)).toEqual(BAD.map(() => code));
  for (const [way, reported] of Object.entries(ways)) {
    expect(reported.skipped, way).toBe(BAD.length);
    expect(reported.skippedErrors, way).toEqual(ways.plain!.skippedErrors);
  }
}

describe('tfpipe run --workers, work and finalize under onError: skip', () => {
  it('report every skipped CSV row at its position in the file, as a plain run does', async () => {
    const ways = await everyWay('csv', 'source:\n  plugin: csv\n  options: { path: rows.csv }');
    expectSameAsPlain(ways, 'CSV_ROW_LENGTH');
  }, 120_000);

  it('report every skipped Parquet row at its position in the file, as a plain run does', async () => {
    const ways = await everyWay(
      'parquet',
      'source:\n  plugin: parquet\n  options: { path: rows.parquet }',
      'split: { column: fold }\n',
    );
    expectSameAsPlain(ways, 'SPLIT');
  }, 120_000);
});

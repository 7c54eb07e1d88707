import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readExamples } from '@tfpipe/sink-tfrecord';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CORPUS } from './__fixtures__/run-cli.js';

// Node's module hooks run on their own thread; they append each URL the process imports to a file.
const HOOKS = `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, result.url + '\\n');
  return result;
}`)}`;

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-lazy-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Runs the built `tfpipe ...args` and resolves with every module URL it imported. */
async function importsOf(args: readonly string[]): Promise<string[]> {
  const log = join(directory, `imports-${Math.random().toString(36).slice(2)}.log`);
  await writeFile(log, '');
  const register = `data:text/javascript,${encodeURIComponent(
    `import { register } from 'node:module'; register(${JSON.stringify(HOOKS)}, { data: { log: ${JSON.stringify(log)} } });`,
  )}`;
  await new Promise<void>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', register, BIN, ...args],
      { cwd: directory },
      (error, _out, stderr) =>
        error === null ? resolve() : reject(new Error(`${error.message}\n${stderr}`)),
    );
  });
  return (await readFile(log, 'utf8')).split('\n').filter((url) => url !== '' && !url.startsWith('node:'));
}

const HEAVY = /\/(sharp|hyparquet[^/]*|protobufjs|zod|yaml)@|\/packages\/(?!cli\/)/;

describe('what tfpipe loads', () => {
  it.each(['--help', '--version', 'convert --help', 'run --help'])(
    'tfpipe %s loads only the CLI itself: no plugin, no sharp, hyparquet, protobufjs, zod or yaml',
    async (line) => {
      const urls = await importsOf(line.split(' '));
      expect(urls.some((url) => url.endsWith('/packages/cli/dist/bin.js'))).toBe(true);
      expect(urls.filter((url) => HEAVY.test(url) || url.includes('/node_modules/'))).toEqual([]);
    },
  );

  it('a CSV convert loads neither sharp, hyparquet nor protobufjs', async () => {
    await writeFile(join(directory, 'rows.csv'), 'id,label\n1,a\n2,b\n');
    const urls = await importsOf(['convert', 'rows.csv', 'rows.tfrecord', '--quiet']);
    // Guards the guard: the log does see the packages the conversion needs.
    expect(urls.some((url) => url.includes('/packages/source-csv/'))).toBe(true);
    expect(urls.filter((url) => /\/(sharp|hyparquet[^/]*|@img|protobufjs)@/.test(url))).toEqual([]);
  });

  it('a CSV convert and a pipeline run load zod as one bundled module, not the ~95 files of its package', async () => {
    await writeFile(join(directory, 'rows.csv'), 'id,label\n1,a\n2,b\n');
    await writeFile(
      join(directory, 'pipeline.json'),
      JSON.stringify({
        source: { plugin: 'csv', options: { path: 'rows.csv' } },
        sink: { plugin: 'tfrecord', options: { directory: 'out-run' } },
      }),
    );
    for (const args of [
      ['convert', 'rows.csv', 'zod.tfrecord', '--quiet'],
      ['run', 'pipeline.json', '--quiet'],
    ]) {
      const urls = await importsOf(args);
      // Guards the guard: the option schemas were loaded (their shared vocabulary carries zod).
      expect(urls.some((url) => url.includes('/packages/node-utils/dist/options.js'))).toBe(true);
      expect([args[0], urls.filter((url) => /\/zod@/.test(url))]).toEqual([args[0], []]);
    }
  });

  it('a plain image convert loads no scale-out, queue, split, shuffle, expression or other-input code', async () => {
    // Two real JPEGs (from the raccoon corpus file) in a class folder.
    const folder = join(directory, 'plain-images', 'raccoon');
    await mkdir(folder, { recursive: true });
    let written = 0;
    for await (const example of readExamples(join(CORPUS, 'raccoon_test_jpeg.record'))) {
      const encoded = example.features['image/encoded'];
      if (encoded?.kind !== 'bytes') throw new Error('the corpus file has no image/encoded bytes');
      await writeFile(join(folder, `${written}.jpg`), encoded.value[0]!);
      if (++written === 2) break;
    }
    const urls = await importsOf([
      'convert',
      'plain-images',
      'plain.tfrecord',
      '--resize',
      '16x16',
      '--format',
      'jpeg',
      '--quiet',
    ]);
    // Each loaded file of the pipeline and image packages, as the TypeScript sources it was built from.
    const sources: string[] = [];
    for (const url of urls.filter((url) => /\/packages\/(pipeline|source-images)\/dist\/.*\.js$/.test(url))) {
      const map = JSON.parse(await readFile(`${fileURLToPath(url)}.map`, 'utf8')) as { sources: string[] };
      sources.push(
        ...map.sources.map((source) => new URL(source, url).pathname.replace(/^.*\/packages\//, '')),
      );
    }
    // Guards the guard: the run and the class-folder input were loaded and seen through their maps.
    expect(sources).toContain('pipeline/src/run/run-pipeline.ts');
    expect(sources).toContain('source-images/src/inputs/class-folder.ts');
    // (sharp loads by `require`, which these hooks do not see on Node 20: the output shows it ran.)
    expect((await stat(join(directory, 'plain.tfrecord'))).size).toBeGreaterThan(0);
    const unused =
      /^pipeline\/src\/(scale|queue)\/|^pipeline\/src\/(stages\/(external-shuffle|assign-split|split-hash|route-rows|row-expression)|plugins\/jsonl|config\/(config-schema|parse-|pipeline-json-schema)|run\/(dry-run|reader-files|tfds-metadata))|^source-images\/src\/inputs\/(coco|pascal-voc|parse-xml|image-list\.ts|csv-list)/;
    expect(sources.filter((source) => unused.test(source))).toEqual([]);
    expect(
      urls.filter((url) =>
        /\/packages\/pipeline\/dist\/index\.js$|\/packages\/source-(csv|parquet)\/|hyparquet/.test(url),
      ),
    ).toEqual([]);
  });
});

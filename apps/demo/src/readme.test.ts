// The docs test: every ```ts block of the root README runs as written, so the README never rots.
import { verifyTfrecord } from '@tfpipe/sink-tfrecord';
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { exampleScripts, typescriptBlocks, type ExampleScripts } from './__fixtures__/example-scripts.js';
import { random } from './sample-data.js';

const appDirectory = path.resolve(import.meta.dirname, '..');
const readmeFile = path.resolve(appDirectory, '../../README.md');
let blocks: string[];
let scripts: ExampleScripts;

/** A penguins.csv as the README describes it: 344 rows, species names, some empty cells. */
function penguinsCsv(): string {
  const next = random(344);
  const species = ['Adelie', 'Chinstrap', 'Gentoo'];
  const islands = ['Biscoe', 'Dream', 'Torgersen'];
  const lines = ['species,island,bill_length_mm,bill_depth_mm,flipper_length_mm,body_mass_g,sex'];
  for (let row = 0; row < 344; row++) {
    const missing = row % 50 === 3;
    const cell = (value: string): string => (missing ? '' : value);
    lines.push(
      [
        species[row % 3],
        islands[Math.floor(next() * 3)],
        cell((32 + next() * 28).toFixed(1)),
        cell((13 + next() * 8).toFixed(1)),
        cell(String(172 + Math.floor(next() * 60))),
        cell(String(2700 + Math.floor(next() * 3600))),
        cell(next() < 0.5 ? 'male' : 'female'),
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

beforeAll(async () => {
  blocks = typescriptBlocks(await readFile(readmeFile, 'utf8'));
  scripts = await exampleScripts('readme');
});
afterAll(() => scripts.remove());

/** Runs a block in its own directory, holding `penguins.csv`. */
function runBlock(index: number): Promise<{ stdout: string; cwd: string }> {
  return scripts.run(`block-${index}`, blocks[index]!, (cwd) =>
    writeFile(path.join(cwd, 'penguins.csv'), penguinsCsv()),
  );
}

/** The root README's sections, in order: what a user needs first, then contributors; the rest lives in docs/. */
const SECTIONS = [
  'Quick start',
  'What it is',
  'Packages',
  'The CLI at a glance',
  'Reading the output',
  'Working on tfpipe',
  'Further reading',
  'License',
];

test('the README stays under 8 KiB, in its sections, and links the rest', async () => {
  const markdown = await readFile(readmeFile, 'utf8');
  expect(Buffer.byteLength(markdown)).toBeLessThan(8 * 1024);
  const outsideCode = markdown.replace(/^```[\s\S]*?^```$/gm, '');
  expect([...outsideCode.matchAll(/^## (.+)$/gm)].map((match) => match[1])).toEqual(SECTIONS);
  expect(outsideCode).toContain('(docs/working-on-tfpipe.md)');
  expect(outsideCode).toContain('(docs/architecture.md)');
});

test("the Quick start is exactly two commands, and CI runs the second one's test command", async () => {
  const markdown = await readFile(readmeFile, 'utf8');
  const commands = /^## Quick start\n[\s\S]*?^```sh\n([\s\S]*?)^```$/m.exec(markdown)?.[1];
  expect(commands).toBe('npx -y pnpm@10 install && npx -y pnpm@10 demo\nnpx -y pnpm@10 test\n');
  const ci = await readFile(path.resolve(appDirectory, '../../.ci/run'), 'utf8');
  expect(ci).toMatch(/^"\$\{PNPM\[@\]\}" test /m);
});

test('the README has a TypeScript example, and every block runs without an error', async () => {
  expect(blocks.length).toBeGreaterThan(0);
  for (let index = 0; index < blocks.length; index++) await runBlock(index);
});

test('the quick example writes what its comment says: 344 records in four indexed shards', async () => {
  const index = blocks.findIndex((block) => block.includes('csvToExamples'));
  expect(index).toBeGreaterThanOrEqual(0);
  const { stdout, cwd } = await runBlock(index);
  expect(stdout).toMatch(/^344 \[/);
  const shards = [0, 1, 2, 3].map((shard) => `out/train-0000${shard}-of-00004.tfrecord`);
  for (const shard of shards) expect(stdout).toContain(`'${shard}'`);
  expect(blocks[index]).toContain(`// 344 [ '${shards[0]}', …, '${shards[3]}' ]`);
  const verified = await verifyTfrecord(shards.map((shard) => path.join(cwd, shard)));
  expect(verified).toMatchObject({ ok: true, records: 344 });
  for (const shard of shards) await readFile(path.join(cwd, `${shard}.idx`), 'utf8');
});

test('the quick example reads its first record back as its comment says', async () => {
  const index = blocks.findIndex((block) => block.includes('readExamples('));
  expect(index).toBeGreaterThanOrEqual(0);
  const { stdout } = await runBlock(index);
  const printed = "{ kind: 'int64', value: [ 0n ] } bytes";
  expect(stdout.trimEnd().split('\n').at(-1)).toBe(printed);
  expect(blocks[index]).toContain(`// ${printed}`);
});

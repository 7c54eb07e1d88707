// The package READMEs' test: every complete ```ts example (one that has its imports) type-checks against the built
// packages, strict, and the self-contained ones run as written, so a renamed export or option shows in the README too.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  exampleScripts,
  proseOf,
  typescriptBlocks,
  type ExampleScripts,
} from './__fixtures__/example-scripts.js';

const rootDirectory = path.resolve(import.meta.dirname, '../../..');
const packagesDirectory = path.join(rootDirectory, 'packages');
const docsDirectory = path.join(rootDirectory, 'docs');
let scripts: ExampleScripts;

interface Example {
  /** `core-0`: the package folder and the block's index among that README's examples. */
  readonly name: string;
  readonly source: string;
}

/** The README's TypeScript blocks that import what they use: the complete examples. */
function completeExamples(folder: string, markdown: string): Example[] {
  return typescriptBlocks(markdown)
    .filter((block) => /^import\s/m.test(block))
    .map((source, index) => ({ name: `${folder}-${index}`, source }));
}

/** Each package's entries (`@tfpipe/core/testing` …) mapped to their built types, as a `paths` table. */
async function builtEntries(folders: readonly string[]): Promise<Record<string, string[]>> {
  const paths: Record<string, string[]> = {};
  for (const folder of folders) {
    const directory = path.join(packagesDirectory, folder);
    const manifest = JSON.parse(await readFile(path.join(directory, 'package.json'), 'utf8')) as {
      name: string;
      exports: Record<string, string | { types?: string }>;
    };
    for (const [entry, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string' || target.types === undefined) continue;
      paths[`${manifest.name}${entry.slice(1)}`] = [path.join(directory, target.types)];
    }
  }
  return paths;
}

let folders: string[];
let examples: Example[];
/** Each package folder's README text. */
const readmes = new Map<string, string>();

beforeAll(async () => {
  folders = (await readdir(packagesDirectory)).sort();
  examples = [];
  for (const folder of folders) {
    const readme = await readFile(path.join(packagesDirectory, folder, 'README.md'), 'utf8').catch(() => '');
    readmes.set(folder, readme);
    examples.push(...completeExamples(folder, readme));
  }
  // Reference moved from a README into docs/ keeps its examples checked the same way.
  for (const file of (await readdir(docsDirectory)).filter((name) => name.endsWith('.md')).sort()) {
    const markdown = await readFile(path.join(docsDirectory, file), 'utf8');
    examples.push(...completeExamples(`docs-${file.replace(/\.md$/, '')}`, markdown));
  }
  scripts = await exampleScripts('package-readmes');
});
afterAll(() => scripts.remove());

test('every package README has a complete TypeScript example', () => {
  const withExamples = new Set(examples.map((example) => example.name.replace(/-\d+$/, '')));
  expect(folders.filter((folder) => !withExamples.has(folder))).toEqual([]);
});

/** STYLE.md's sections of a package README, in order ("Compatibility with …" may say more). */
const SECTIONS = ['Install', 'Use', 'API', 'Errors', 'Compatibility', 'License'];
/** What reads as a benchmark figure: a speed ratio, a throughput, a time in milliseconds. */
const FIGURE =
  /\b\d+(?:\.\d+)?x\b|\b(?:records|rows|images|files)\/s\b|\b[KMG]i?B\/s\b|\b\d+(?:\.\d+)? ?ms\b/;

/** The prose lines of a README that state a figure without linking bench/README.md's dated table. */
function benchmarkFigures(markdown: string): string[] {
  return proseOf(markdown)
    .split('\n')
    .filter((line) => FIGURE.test(line) && !line.includes('bench/README.md'));
}

test('every package README has the sections Install, Use, API, Errors, Compatibility, License, in order', () => {
  const sections = [...readmes].map(([folder, markdown]) => [
    folder,
    [...markdown.matchAll(/^## (\S+)/gm)].map((match) => match[1]),
  ]);
  expect(sections).toEqual([...readmes.keys()].map((folder) => [folder, SECTIONS]));
});

test('a benchmark figure is found in prose, not in code, and passes with a link to the dated table', () => {
  expect(
    benchmarkFigures('Converts at 0.58x papaparse.\nReads 1.2M rows/s.\n`got "8x"`, 224×224.\n'),
  ).toEqual(['Converts at 0.58x papaparse.', 'Reads 1.2M rows/s.']);
  expect(benchmarkFigures('1.9M rows/s ([bench/README.md](../../bench/README.md))')).toEqual([]);
});

test('no package README states a benchmark figure: figures live in bench/README.md', () => {
  const figures = [...readmes].flatMap(([folder, markdown]) =>
    benchmarkFigures(markdown).map((line) => `${folder}: ${line}`),
  );
  expect(figures).toEqual([]);
});

test('nor does the root README: its one figure, the suite time, is no benchmark', async () => {
  const markdown = await readFile(path.join(rootDirectory, 'README.md'), 'utf8');
  expect(benchmarkFigures(markdown)).toEqual([]);
});

test("the docs' complete examples are checked too (the plugin authors' reference)", () => {
  expect(examples.map((example) => example.name)).toContain('docs-plugins-0');
});

test('every complete example type-checks, strict, against the built packages', async () => {
  const files = examples.map((example) => path.join(scripts.scripts, `${example.name}.ts`));
  // `export {}` makes each a module, as a file with top-level `await` must be.
  await Promise.all(
    examples.map((example, index) => writeFile(files[index]!, `${example.source}\nexport {};\n`)),
  );
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts', 'lib.dom.asynciterable.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    paths: await builtEntries(folders),
    types: ['node'],
    typeRoots: [path.join(rootDirectory, 'node_modules/@types')],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where =
      diagnostic.file === undefined
        ? ''
        : `${path.basename(diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}: `;
    return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  });
  expect(problems).toEqual([]);
}, 120_000);

/** Runs an example in a fresh directory; resolves with what it printed. */
async function runExample(name: string): Promise<string> {
  const example = examples.find((candidate) => candidate.name === name);
  if (example === undefined) throw new Error(`no example ${name}`);
  return (await scripts.run(name, example.source)).stdout;
}

test("core's example prints what its comments say: one row skipped with its cell, exact int64 in JSON", async () => {
  const lines = (await runExample('core-0')).trimEnd().split('\n');
  expect(lines[0]).toBe('3 2 1 "12abc" is not a decimal integer (feature "age") at field "age"');
  expect(lines[1]).toContain('"age":{"int64List":{"value":["9007199254740993"]}}');
});

test("sink-tfrecord's example writes, verifies and reads back its two gzip shards", async () => {
  // util.inspect breaks lines by width: compare with the whitespace folded.
  const output = (await runExample('sink-tfrecord-0')).replace(/\s+/g, ' ');
  expect(output).toContain("{ path: 'out/train-00000-of-00002.tfrecord.gz', records: 500, bytes: 6252 }");
  expect(output).toContain('records: 1000, bytes: 12567, ok: true, errors: [], problems: 0');
  expect(output).toContain("{ kind: 'int64', value: [ 1n ] }");
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bytesList, example, floatList, int64List, sequenceExample, type Example } from '@tfpipe/core';
import {
  parseSequenceExample,
  specFromJson,
  specToJson,
  tfrecordDataset,
  type ExampleParseSpec,
  type SequenceParseSpec,
} from '@tfpipe/dataset/node';
import { createTfrecordWriter, readExamples } from '@tfpipe/sink-tfrecord';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CORPUS, tfpipe } from './__fixtures__/run-cli.js';

// The generated modules live inside the package, so `@tfpipe/dataset` resolves from them as it does
// for a user's project that depends on it.
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
let modules: string;
let data: string;

const ODD = 'a b/"c"\n\u2028';
beforeAll(async () => {
  modules = await mkdtemp(join(PACKAGE, '.spec-check-'));
  await writeFile(join(modules, 'package.json'), '{ "type": "module" }\n');
  data = await mkdtemp(join(tmpdir(), 'tfpipe-schema-spec-'));
  const writer = await createTfrecordWriter({ path: join(data, 'odd.tfrecord') });
  for (let index = 0; index < 5; index++) {
    await writer.write(
      example({
        ['__proto__']: int64List([BigInt(index) - 2n ** 63n]),
        [ODD]: bytesList([`x,${index}`, new Uint8Array([0xff, index])]),
        ünï: floatList(Array.from({ length: index }, (_, step) => step / 3)),
        grid: floatList([index, 1, 2, 3, 4, 5]),
        ...(index % 2 === 0 ? { sometimes: int64List([2n ** 63n - 1n]) } : {}),
        mixed: index === 0 ? int64List([1n]) : floatList([1]),
      }),
    );
  }
  await writer.close();
  const sequences = await createTfrecordWriter({ path: join(data, 'seq.tfrecord') });
  for (let index = 0; index < 3; index++) {
    await sequences.write(
      sequenceExample(
        { id: bytesList([`s${index}`]) },
        {
          frames: Array.from({ length: index + 1 }, () => floatList([index, -index])),
          words: Array.from({ length: 2 }, (_, step) =>
            bytesList(Array.from({ length: step + index }, () => 'w')),
          ),
        },
      ),
    );
  }
  await sequences.close();
});
afterAll(async () => {
  await rm(modules, { recursive: true, force: true });
  await rm(data, { recursive: true, force: true });
});

/** Parsed declaration files (the libs, the dataset's), shared by the `typeErrors` calls; the generated modules are read each time. */
const declarations = new Map<string, ts.SourceFile | undefined>();

/** Type errors of `files` under the repository's strict options, as `tsc` prints them. */
function typeErrors(files: readonly string[]): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, version) => {
    if (!fileName.endsWith('.d.ts')) return read(fileName, version);
    if (!declarations.has(fileName)) declarations.set(fileName, read(fileName, version));
    return declarations.get(fileName);
  };
  const program = ts.createProgram({ rootNames: [...files], options, host });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

async function examples(file: string): Promise<Example[]> {
  const records: Example[] = [];
  for await (const record of readExamples([file], {})) records.push(record);
  return records;
}

/** The first index where the parsed values and the read ones differ (values or count), or -1. */
function firstDifference(actual: ArrayLike<unknown>, expected: readonly unknown[]): number {
  for (let index = 0; index < Math.max(actual.length, expected.length); index++) {
    const [left, right] = [actual[index], expected[index]];
    const same =
      left instanceof Uint8Array && right instanceof Uint8Array
        ? Buffer.compare(left, right) === 0
        : Object.is(left, right);
    if (!same) return index;
  }
  return -1;
}

/** Every value of every spec'd feature, parsed in one batch, equals what the Example reader reads. */
async function expectParsesAsRead(file: string, spec: ExampleParseSpec): Promise<void> {
  const records = await examples(file);
  const batches = [];
  for await (const batch of tfrecordDataset(file).parse(spec, { batchSize: records.length }))
    batches.push(batch);
  expect(batches).toHaveLength(1);
  const batch = batches[0]!;
  for (const [name, feature] of Object.entries(spec)) {
    const tensor = batch[name]!;
    const expected = records.flatMap((record) => [...(record.features[name]?.value ?? [])]);
    expect(firstDifference(tensor.data as ArrayLike<unknown>, expected), name).toBe(-1);
    if (feature.type === 'fixedLen') expect(tensor.shape).toEqual([records.length, ...feature.shape]);
    else expect(tensor.kind, name).toBe('sparse');
  }
}

const CASES = [
  ['mnist', join(CORPUS, 'tfx_mnist_floats.tfrecord')],
  ['taxi', join(CORPUS, 'tfx_taxi_csvgen_eval_00000.tfrecord.gz')],
  ['penguin', join(CORPUS, 'tfx_penguin_train.tfrecord.gz')],
  ['singles', join(CORPUS, 'pwnall_singles.tfrecords')],
  ['raccoon', join(CORPUS, 'raccoon_test_jpeg.record')],
] as const;

describe('tfpipe schema --format ts', () => {
  test('prints fixedLen where tf prints FixedLenFeature, varLen where it prints VarLenFeature', async () => {
    const taxi = join(CORPUS, 'tfx_taxi_csvgen_eval_00000.tfrecord.gz');
    const [code, tf] = await Promise.all([
      tfpipe(['schema', taxi, '--format', 'ts']),
      tfpipe(['schema', taxi, '--format', 'tf']),
    ]);
    expect(code.code).toBe(0);
    // Each line of the tf form, rewritten by hand into the TypeScript line it must match.
    const expected = [
      ...tf.stdout.matchAll(
        /^ {4}"(\w+)": tf\.io\.(FixedLenFeature\(\[\], |VarLenFeature\()tf\.(\w+)\),(?: {2}# (.*))?$/gm,
      ),
    ].map(([, name, kind, dtype, note]) => {
      const call = kind === 'VarLenFeature(' ? `varLen('${dtype}')` : `fixedLen([], '${dtype}')`;
      return `  ${name}: ${call},${note === undefined ? '' : ` // ${note}`}`;
    });
    expect(expected.filter((line) => line.includes('fixedLen')).length).toBeGreaterThan(0);
    expect(expected.filter((line) => line.includes('varLen')).length).toBeGreaterThan(0);
    const lines = code.stdout.split('\n');
    expect(lines.filter((line) => line.startsWith('  '))).toEqual(expected);
    expect(lines[0]).toBe('import { fixedLen, parseExample, varLen } from "@tfpipe/dataset";');
  });

  test('the printed TypeScript type-checks, and its spec parses the very files it came from', async () => {
    const written: string[] = [];
    for (const [name, file] of [...CASES, ['odd', join(data, 'odd.tfrecord')] as const]) {
      const result = await tfpipe(['schema', file, '--format', 'ts']);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      written.push(join(modules, `${name}.ts`));
      await writeFile(written.at(-1)!, result.stdout);
    }
    // The spec types the batch: no cast from the parser to a BigInt64Array and a Float32Array.
    await writeFile(
      join(modules, 'use.ts'),
      [
        "import { parser } from './mnist.js';",
        'const batch = parser.parse([]);',
        'export const labels: BigInt64Array = batch.image_class.data;',
        'export const pixels: Float32Array = batch.image_floats.data;',
        "export const shape: readonly number[] = batch['image_floats'].shape;",
        '',
      ].join('\n'),
    );
    await writeFile(
      join(modules, 'wrong.ts'),
      "import { parser } from './mnist.js';\nexport const x: Float32Array = parser.parse([]).image_class.data;\n",
    );
    expect(typeErrors([...written, join(modules, 'use.ts')])).toEqual([]);
    // The check can fail: an int64 feature is not a Float32Array.
    expect(typeErrors([join(modules, 'wrong.ts')]).join('\n')).toMatch(
      /^Type 'BigInt64Array<ArrayBufferLike>' is not assignable to type 'Float32Array<ArrayBufferLike>'/,
    );
    for (const [name, file] of [...CASES, ['odd', join(data, 'odd.tfrecord')] as const]) {
      const generated = (await import(join(modules, `${name}.ts`))) as { spec: ExampleParseSpec };
      await expectParsesAsRead(file, generated.spec);
    }
  }, 300_000);

  test('odd names are keys, __proto__ a feature; a mixed-kind feature is left out with the reason', async () => {
    const { stdout } = await tfpipe(['schema', join(data, 'odd.tfrecord'), '--format', 'ts']);
    expect(stdout).toContain('  ["__proto__"]: fixedLen([], \'int64\'),\n');
    expect(stdout).toContain(`  ${JSON.stringify(ODD)}: fixedLen([2], 'string'),\n`);
    expect(stdout).toContain("  grid: fixedLen([6], 'float32'),\n");
    expect(stdout).toContain("  sometimes: varLen('int64'), // missing from 2 of 5 records\n");
    expect(stdout).toContain('  // "mixed": records disagree on its kind; no single spec parses it\n');
    const generated = (await import(join(modules, 'odd.ts'))) as { spec: ExampleParseSpec };
    expect(Object.keys(generated.spec)).toEqual(['__proto__', ODD, 'grid', 'sometimes', 'ünï'].sort());
  });

  test('--format spec is the same spec as --format ts, and specToJson of the TypeScript spec is that JSON', async () => {
    for (const [name, file] of [...CASES, ['odd', join(data, 'odd.tfrecord')] as const]) {
      const json = JSON.parse((await tfpipe(['schema', file, '--format', 'spec'])).stdout) as unknown;
      const generated = (await import(join(modules, `${name}.ts`))) as { spec: ExampleParseSpec };
      expect({ ...specFromJson(json).features }, name).toEqual({ ...generated.spec });
      expect(JSON.parse(JSON.stringify(specToJson(generated.spec))), name).toEqual(json);
    }
  });

  test('SequenceExamples: context and featureLists, parsed with parseSequenceExample', async () => {
    const file = join(data, 'seq.tfrecord');
    const result = await tfpipe(['schema', file, '--sequence', '--format', 'ts']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("  frames: fixedLenSequence([2], 'float32'),\n");
    expect(result.stdout).toContain("  words: varLen('string'), // list length varies from 0 to 3\n");
    await writeFile(join(modules, 'seq.ts'), result.stdout);
    expect(typeErrors([join(modules, 'seq.ts')])).toEqual([]);
    const generated = (await import(join(modules, 'seq.ts'))) as {
      context: ExampleParseSpec;
      featureLists: SequenceParseSpec;
    };
    const records: Uint8Array[] = [];
    for await (const record of tfrecordDataset(file)) records.push(record.data);
    const parsed = parseSequenceExample(generated.context, generated.featureLists).parse(records);
    expect(Array.from((parsed.lengths as Record<string, { data: BigInt64Array }>)['frames']!.data)).toEqual([
      1n,
      2n,
      3n,
    ]);
    expect(parsed.featureLists['frames']!.shape).toEqual([3, 3, 2]);
    const json = JSON.parse(
      (await tfpipe(['schema', file, '--sequence', '--format', 'spec'])).stdout,
    ) as unknown;
    const fromJson = specFromJson(json);
    expect({ ...fromJson.features }).toEqual({ ...generated.context });
    expect({ ...fromJson.featureLists }).toEqual({ ...generated.featureLists });
  });

  test('an empty file gives an empty spec that still type-checks', async () => {
    const file = join(data, 'empty.tfrecord');
    await writeFile(file, new Uint8Array(0));
    const result = await tfpipe(['schema', file, '--format', 'ts']);
    expect(result.stdout).toContain('export const spec = {\n};');
    await writeFile(join(modules, 'empty.ts'), result.stdout);
    expect(typeErrors([join(modules, 'empty.ts')])).toEqual([]);
    expect(JSON.parse((await tfpipe(['schema', file, '--format', 'spec'])).stdout)).toEqual({ features: {} });
  });
});

import { mkdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { daliSpec, FeatureStatsCollector, tensorflowSpec, type DatasetStats } from '@tfpipe/core';
import { tfdsDatasetInfo, tfdsFeatures, type WrittenSplit } from '@tfpipe/pipeline';
import { countRecords, detectCompression, readExamples } from '@tfpipe/sink-tfrecord';
import { openRegularFile } from '@tfpipe/node-utils';
import { checkNewFile, writeFileAtomically } from '../config/output-guard.js';
import type { FlagValues } from '../command.js';
import { booleanFlag, choiceFlag, integerFlag, stringFlag } from '../flags.js';
import { writeLine, type CliIo } from '../io.js';
import { printableName } from '../printable.js';
import { payloadTypeOf, readOptions } from './read-options.js';
import { tfrecordFiles } from './tfrecord-files.js';

const TFDS_FILES = ['dataset_info.json', 'features.json'] as const;

/** Reads records of `files` into dataset statistics (all of them, or the first `limit`). */
export async function collectStats(
  files: readonly string[],
  options: Parameters<typeof readExamples>[1],
  limit = Infinity,
): Promise<DatasetStats> {
  const collector = new FeatureStatsCollector();
  for await (const record of readExamples(files, options ?? {})) {
    collector.add(record);
    if (collector.records >= limit) break;
  }
  return collector.result(options?.payloadType === 'SequenceExample' ? 'SequenceExample' : 'Example');
}

/** The compression of a file from its first bytes, for the generated reader code. */
export async function sniffCompression(file: string): Promise<'none' | 'gzip' | 'zlib'> {
  const { handle } = await openRegularFile(file, 'schema');
  try {
    const head = new Uint8Array(32);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return detectCompression(head.subarray(0, bytesRead), true) ?? 'none';
  } finally {
    await handle.close();
  }
}

/** The split of a shard from its name: `train-00000-of-00008.tfrecord` and TFDS's `mnist-train.tfrecord-00000-of-00001` → `train`. */
export function splitOfShard(file: string): string {
  const prefix = basename(file).replace(/-\d{5,}-of-\d{5,}.*$/, '');
  const tfds = /^.+-([\w]+)\.tfrecord$/.exec(prefix);
  return tfds?.[1] ?? prefix.replace(/\.(tfrecords?|tfrec)(\.gz|\.zz)?$/, '');
}

/** Shards grouped by split, with their record counts (every CRC checked) and sizes on disk. */
async function splitsOf(
  files: readonly string[],
  options: Parameters<typeof countRecords>[1],
): Promise<WrittenSplit[]> {
  const splits = new Map<string, { path: string; records: number; bytes: number }[]>();
  for (const file of files) {
    const shard = { path: file, records: await countRecords(file, options), bytes: (await stat(file)).size };
    const name = splitOfShard(file);
    splits.set(name, [...(splits.get(name) ?? []), shard]);
  }
  return [...splits].map(([name, shards]) => ({ name, shards }));
}

function table(stats: DatasetStats): string[] {
  const rows = [
    ...stats.features.map((stat) => ({ ...stat, label: printableName(stat.name) })),
    ...stats.featureLists.map((stat) => ({
      ...stat,
      label: `${printableName(stat.name)} (list, ${stat.minSteps}-${stat.maxSteps} steps)`,
    })),
  ];
  // A loop, not `Math.max(...lengths)`: a dataset may have more features than a call takes arguments.
  let width = 7;
  for (const row of rows) width = Math.max(width, row.label.length);
  const lines = [
    `${stats.records} records (${stats.payloadType})`,
    `${'feature'.padEnd(width)}  kind    length    present`,
  ];
  for (const row of rows) {
    const length = row.minLength === row.maxLength ? `${row.minLength}` : `${row.minLength}-${row.maxLength}`;
    const present = `${row.present}/${stats.records}`;
    lines.push(`${row.label.padEnd(width)}  ${row.kind.padEnd(6)}  ${length.padEnd(8)}  ${present}`);
  }
  return lines;
}

/** `tfpipe schema`: the features of a dataset, and the reader code for TensorFlow or DALI. */
export async function describeSchema(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  const files = await tfrecordFiles(positionals, 'FILE to describe', 'schema', io);
  const format =
    choiceFlag(values, 'format', ['text', 'json', 'tf', 'dali', 'tfds', 'ts', 'spec'] as const) ?? 'text';
  const tfdsFiles =
    format === 'tfds'
      ? TFDS_FILES.map((name) =>
          join(resolve(io.cwd, stringFlag(values, 'out') ?? dirname(files[0] ?? '.')), name),
        )
      : [];
  // A read command destroys nothing: refused before the (possibly long) read, not after it.
  for (const file of tfdsFiles) {
    await checkNewFile(file, {
      flag: '--format tfds',
      overwrite: booleanFlag(values, 'overwrite'),
      inputs: files,
    });
  }
  const payloadType = await payloadTypeOf(values, files[0]);
  const stats = await collectStats(
    files,
    { ...readOptions(values), payloadType },
    integerFlag(values, 'limit'),
  );
  const compression = files[0] === undefined ? 'none' : await sniffCompression(files[0]);
  if (format === 'tfds') {
    const directory = resolve(io.cwd, stringFlag(values, 'out') ?? dirname(files[0] ?? '.'));
    const name = stringFlag(values, 'name') ?? basename(directory);
    const splits = await splitsOf(files, readOptions(values));
    await mkdir(directory, { recursive: true });
    await writeFileAtomically(
      join(directory, 'dataset_info.json'),
      `${JSON.stringify(tfdsDatasetInfo(name, splits, compression), null, 2)}\n`,
    );
    await writeFileAtomically(
      join(directory, 'features.json'),
      `${JSON.stringify(tfdsFeatures(stats), null, 2)}\n`,
    );
    await writeLine(
      io.stdout,
      `wrote ${join(directory, 'dataset_info.json')} and ${join(directory, 'features.json')}`,
    );
    return 0;
  }
  const output =
    format === 'ts' || format === 'spec'
      ? await datasetSpecText(stats, format)
      : format === 'json'
        ? JSON.stringify(stats, null, 2)
        : format === 'tf'
          ? tensorflowSpec(stats, { files, compression })
          : format === 'dali'
            ? daliSpec(stats, { files })
            : table(stats).join('\n');
  await writeLine(io.stdout, output.trimEnd());
  return 0;
}

/** The `@tfpipe/dataset` spec of the data: TypeScript (`--format ts`) or the `--spec` file's JSON (`--format spec`). */
async function datasetSpecText(stats: DatasetStats, format: 'ts' | 'spec'): Promise<string> {
  const { specFromStats, specTypeScriptFromStats } = await import('@tfpipe/dataset');
  if (format === 'spec') return JSON.stringify(specFromStats(stats).spec, null, 2);
  return specTypeScriptFromStats(stats);
}

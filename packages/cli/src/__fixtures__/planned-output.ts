// Test helper: what a scaled-out run (plan / work / finalize, on any scheduler) must leave behind.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readExamples, verifyTfrecord } from '@tfpipe/sink-tfrecord';
import { expect } from 'vitest';

/**
 * Checks `output`: exactly `shards` shard files plus the manifest, reader spec and `sideFiles`, no
 * temporaries, every CRC valid, ids `0 … rows - 1` once each in order, and each shard and side file
 * byte-identical to the one of the same name in `reference` (a single-process run).
 */
export async function expectPlannedOutput(
  output: string,
  reference: string,
  shards: number,
  rows: number,
  sideFiles: readonly string[] = [],
): Promise<void> {
  const width = String(shards).padStart(5, '0');
  const shardNames = Array.from(
    { length: shards },
    (_, index) => `data-${String(index).padStart(5, '0')}-of-${width}.tfrecord`,
  );
  const all = await readdir(output);
  expect(all.filter((name) => !name.startsWith('.')).sort()).toEqual(
    [...shardNames, 'data.manifest.json', 'reader_spec.py', ...sideFiles].sort(),
  );
  expect(all.filter((name) => name.includes('tfpipe-tmp'))).toEqual([]);
  const files = shardNames.map((name) => join(output, name));
  expect((await verifyTfrecord(files)).records).toBe(rows);
  const ids: number[] = [];
  for await (const example of readExamples(files))
    ids.push(Number((example.features.id?.value as bigint[])[0]));
  expect(ids).toEqual(Array.from({ length: rows }, (_, index) => index));
  for (const name of [...shardNames, ...sideFiles]) {
    const bytes = await readFile(join(output, name));
    expect(bytes.equals(await readFile(join(reference, name))), name).toBe(true);
  }
}

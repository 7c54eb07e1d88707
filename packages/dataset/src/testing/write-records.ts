// Test helper (not exported): real TFRecord files written with sink-tfrecord's writer.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeExample, example, float, int64 } from '@tfpipe/core';
import type { Example, TfpipeError } from '@tfpipe/core';
import { createTfrecordWriter } from '@tfpipe/sink-tfrecord';
import type { TfRecord } from '@tfpipe/sink-tfrecord';
import { afterAll } from 'vitest';

/** Example `id`: `id` (int64) and `values` (`id % 4` floats), so tests can check every record. */
export function exampleOf(id: number): Example {
  return example({
    id: int64(id),
    values: float(...Array.from({ length: id % 4 }, (_, at) => id + at / 10)),
  });
}

const created: string[] = [];

/** A fresh temporary folder, removed after the test file's tests. */
export async function temporaryFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'tfpipe-dataset-'));
  created.push(folder);
  return folder;
}

afterAll(async () => {
  for (const folder of created.splice(0)) await rm(folder, { recursive: true, force: true });
});

/**
 * Writes Examples `ids` to `folder/name` (with a `.idx` when `index`, gzip when `compression`) and
 * returns the path.
 */
export async function writeRecords(
  folder: string,
  name: string,
  ids: readonly number[],
  options: { readonly index?: boolean; readonly compression?: 'gzip' | 'zlib' } = {},
): Promise<string> {
  const path = join(folder, name);
  const writer = await createTfrecordWriter({
    path,
    fsync: false,
    ...(options.index === true ? { index: true } : {}),
    ...(options.compression === undefined ? {} : { compression: options.compression }),
  });
  await writer.write(ids.map(exampleOf));
  await writer.close();
  return path;
}

/** Writes the Examples `examples(id)` of `ids` to `folder/name`, with a `.idx`, and returns the path. */
export async function writeExamples(
  folder: string,
  name: string,
  ids: readonly number[],
  examples: (id: number) => Example,
): Promise<string> {
  const path = join(folder, name);
  const writer = await createTfrecordWriter({ path, fsync: false, index: true });
  await writer.write(ids.map(examples));
  await writer.close();
  return path;
}

/** The `id` of a record written by {@link writeRecords}. */
export function idOf(record: TfRecord): number {
  return Number((decodeExample(record.data).features.id!.value as readonly bigint[])[0]);
}

/** The `id`s of a pass over `dataset`. */
export async function ids(dataset: AsyncIterable<TfRecord>): Promise<number[]> {
  const out: number[] = [];
  for await (const record of dataset) out.push(idOf(record));
  return out;
}

/** The integers `start … end - 1`. */
export function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, at) => start + at);
}

/** What a pass hands out before it ends, and the error it ends with (if any). */
export async function drain<T>(dataset: AsyncIterable<T>): Promise<{ elements: T[]; error?: TfpipeError }> {
  const elements: T[] = [];
  try {
    for await (const element of dataset) elements.push(element);
  } catch (error) {
    return { elements, error: error as TfpipeError };
  }
  return { elements };
}

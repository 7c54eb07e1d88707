import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytes, example, int64, type Example } from '@tfpipe/core';
import { defineSourcePlugin, type SideFile, type StandardSchemaV1 } from '@tfpipe/core/plugin';
import { fromArray } from '@tfpipe/core/testing';
import { readExamples } from '@tfpipe/sink-tfrecord';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPipeline } from './run-pipeline.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-side-files-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Options of the test plugin: how many records, and which side files it contributes. */
interface WordsOptions {
  readonly count: number;
  readonly sideFiles: (seen: readonly string[]) => SideFile[];
  readonly failAt?: number;
}

const anything: StandardSchemaV1<unknown, WordsOptions> = {
  '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value: value as WordsOptions }) },
};

/** A third-party source: words as Examples; its side file lists the words it emitted. */
const wordsPlugin = defineSourcePlugin<WordsOptions, Example>({
  kind: 'source',
  name: 'test-words',
  description: 'words, for the side file hook',
  options: anything,
  output: 'examples',
  create(options) {
    const seen: string[] = [];
    const words = Array.from({ length: options.count }, (_, index) => `word${index}`);
    const readable = fromArray(words).pipeThrough(
      new TransformStream<string, Example>({
        transform(word, controller) {
          if (seen.length === options.failAt) throw new Error('the source broke');
          seen.push(word);
          controller.enqueue(example({ id: int64(seen.length), word: bytes(word) }));
        },
      }),
    );
    return { readable, sideFiles: () => options.sideFiles(seen) };
  },
});

/** What a failed run left in the output directory (the sink creates it before the first record). */
async function leftInOutput(): Promise<string[]> {
  return readdir(join(directory, 'out')).catch(() => []);
}

function config(options: WordsOptions) {
  return {
    source: { plugin: wordsPlugin, options },
    sink: { plugin: 'tfrecord', options: { directory: 'out', shards: 1 } },
  };
}

describe("a source plugin's side files", () => {
  it('are asked after the last record and written beside the shards, listed in the result', async () => {
    const result = await runPipeline(
      config({
        count: 5,
        sideFiles: (seen) => [
          { name: 'words.txt', contents: `${seen.join('\n')}\n` },
          { name: 'count.bin', contents: new Uint8Array([seen.length, 0xff]) },
        ],
      }),
      { cwd: directory },
    );
    expect(result.files).toEqual(['reader_spec.py', 'words.txt', 'count.bin']);
    const out = join(directory, 'out');
    expect((await readdir(out)).sort()).toEqual([
      'count.bin',
      'data-00000-of-00001.tfrecord',
      'reader_spec.py',
      'words.txt',
    ]);
    expect(await readFile(join(out, 'words.txt'), 'utf8')).toBe('word0\nword1\nword2\nword3\nword4\n');
    expect([...(await readFile(join(out, 'count.bin')))]).toEqual([5, 0xff]);
    let records = 0;
    for await (const record of readExamples(join(out, 'data-00000-of-00001.tfrecord'))) {
      expect(record.features.id!.value).toEqual([BigInt(++records)]);
    }
    expect(records).toBe(5);
  });

  it('are not written when the run fails, and nothing appears under a final name', async () => {
    const asked: number[] = [];
    const failing = runPipeline(
      config({
        count: 5,
        failAt: 3,
        sideFiles: (seen) => {
          asked.push(seen.length);
          return [{ name: 'words.txt', contents: 'x' }];
        },
      }),
      { cwd: directory },
    );
    await expect(failing).rejects.toThrow('the source broke');
    expect(asked).toEqual([]);
    expect(await leftInOutput()).toEqual([]);
  });

  it('may not name a path outside the output directory nor a file the run writes', async () => {
    for (const [name, code] of [
      ['../escape.txt', 'PATH_ESCAPE'],
      ['sub/file.txt', 'PATH_ESCAPE'],
      ['..', 'PATH_ESCAPE'],
      ['reader_spec.py', 'OUTPUT_EXISTS'],
    ] as const) {
      const run = runPipeline(config({ count: 2, sideFiles: () => [{ name, contents: 'x' }] }), {
        cwd: directory,
      });
      await expect(run).rejects.toMatchObject({ code, position: { file: name } });
      expect(await leftInOutput()).toEqual([]);
    }
  });
});

import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rejectionOf } from '@tfpipe/core/testing';
import { describe, expect, it } from 'vitest';
import { collectAll, eachTemporaryDirectory, put, solid, value } from './__fixtures__/make-images.js';
import { imageSource } from './image-source.js';
import { loadSourceCsv } from './inputs/csv-list.js';

let dir: string;
eachTemporaryDirectory((made) => (dir = made));

const packageDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * The built package installed the way an application that did not add `@tfpipe/source-csv` gets it:
 * its own files plus its dependencies and required peer, nothing else.
 */
function installWithoutSourceCsv(root: string): void {
  const target = path.join(root, 'node_modules/@tfpipe/source-images');
  mkdirSync(target, { recursive: true });
  cpSync(path.join(packageDirectory, 'dist'), path.join(target, 'dist'), { recursive: true });
  cpSync(path.join(packageDirectory, 'package.json'), path.join(target, 'package.json'));
  for (const name of ['@tfpipe/core', '@tfpipe/node-utils', 'sharp', 'zod']) {
    mkdirSync(path.dirname(path.join(root, 'node_modules', name)), { recursive: true });
    symlinkSync(
      realpathSync(path.join(packageDirectory, 'node_modules', name)),
      path.join(root, 'node_modules', name),
      'dir',
    );
  }
}

describe('@tfpipe/source-csv as an optional peer', () => {
  it('reads a .txt list (one path per line) with no CSV parser at all', async () => {
    await put(dir, 'imgs/a.png', await solid(3, 3, 3, 'png'));
    await put(dir, 'imgs/b.png', await solid(4, 3, 3, 'png'));
    await put(dir, 'list.txt', 'imgs/b.png\r\n\nimgs/a.png\n');
    const rows = (await collectAll(imageSource({ list: path.join(dir, 'list.txt') }))) as Record<
      string,
      unknown
    >[];
    expect(rows.map((row) => value(row['image/filename']))).toEqual(['imgs/b.png', 'imgs/a.png']);
    expect(rows.every((row) => row['image/class/label'] === undefined)).toBe(true);
  });

  it('names the package to install when a CSV list cannot load it', async () => {
    const missing = Object.assign(new Error("Cannot find package '@tfpipe/source-csv' imported from x"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const error = await rejectionOf(loadSourceCsv('list.csv', () => Promise.reject(missing)));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toBe(
      'a CSV list file needs @tfpipe/source-csv, which is not installed in list.csv: install it (npm install @tfpipe/source-csv), or give the list as .jsonl or .txt',
    );
    const other = Object.assign(new Error("Cannot find package 'papaparse' imported from x"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    await expect(loadSourceCsv('list.csv', () => Promise.reject(other))).rejects.toBe(other);
  });

  it('installed without it: .txt and .jsonl lists convert, a .csv list is that error (the built package)', async () => {
    installWithoutSourceCsv(dir);
    await put(dir, 'imgs/a.png', await solid(3, 3, 3, 'png'));
    await put(dir, 'list.txt', 'imgs/a.png\n');
    await put(dir, 'list.jsonl', '{"path":"imgs/a.png","label":2}\n');
    await put(dir, 'list.csv', 'path,label\nimgs/a.png,2\n');
    const script = `
      import { imageSource } from '@tfpipe/source-images';
      const count = async (list) => {
        let rows = 0;
        for await (const row of imageSource({ list })) rows++;
        return rows;
      };
      const csv = await count('list.csv').catch((error) => ({ code: error.code, message: error.message }));
      console.log(JSON.stringify({ txt: await count('list.txt'), jsonl: await count('list.jsonl'), csv }));
    `;
    writeFileSync(path.join(dir, 'run.mjs'), script);
    const output = JSON.parse(
      execFileSync(process.execPath, ['run.mjs'], { cwd: dir, encoding: 'utf8' }),
    ) as {
      txt: number;
      jsonl: number;
      csv: { code: string; message: string };
    };
    expect(output.txt).toBe(1);
    expect(output.jsonl).toBe(1);
    expect(output.csv.code).toBe('INVALID_OPTION');
    expect(output.csv.message).toBe(
      `a CSV list file needs @tfpipe/source-csv, which is not installed in ${dir}/list.csv: install it (npm install @tfpipe/source-csv), or give the list as .jsonl or .txt`,
    );
  }, 60_000);
});

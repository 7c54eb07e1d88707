import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { TfpipeError } from '@tfpipe/core';

const GLOB_CHARACTERS = /[*?[]/;

/** Files Spark, Hadoop and Hive write beside the data: `_SUCCESS`, `_metadata`, `.part-0.crc`, `_temporary/`. */
function isDataName(name: string): boolean {
  return !name.startsWith('.') && !name.startsWith('_') && !name.endsWith('.crc');
}

async function walk(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    if (!isDataName(entry.name)) continue;
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) for (const file of await walk(full)) files.push(file);
    else if (entry.isFile()) files.push(full);
  }
  return files;
}

function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index] as string;
    if (character === '*' && pattern[index + 1] === '*') {
      // `**/` matches any number of directories, including none
      source += pattern[index + 2] === '/' ? '(?:.*/)?' : '.*';
      index += pattern[index + 2] === '/' ? 2 : 1;
    } else if (character === '*') source += '[^/]*';
    else if (character === '?') source += '[^/]';
    else if (character === '[') {
      const close = pattern.indexOf(']', index);
      if (close < 0) source += '\\[';
      else {
        source += `[${pattern.slice(index + 1, close).replace(/^!/, '^')}]`;
        index = close;
      }
    } else source += character.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

async function expandGlob(pattern: string): Promise<string[]> {
  const normalized = pattern.split(path.sep).join('/');
  const segments = normalized.split('/');
  const firstGlob = segments.findIndex((segment) => GLOB_CHARACTERS.test(segment));
  const base = segments.slice(0, firstGlob).join('/') || (normalized.startsWith('/') ? '/' : '.');
  const matcher = globToRegExp(segments.slice(firstGlob).join('/'));
  let files: string[];
  try {
    files = await walk(base);
  } catch {
    return [];
  }
  return files.filter((file) => matcher.test(path.relative(base, file).split(path.sep).join('/')));
}

/**
 * Expands what the user named into Parquet files, sorted: a file as is; a directory recursively
 * (Spark/Hive layout: `part-*.parquet`, `key=value/` partitions), skipping hidden and `_`-prefixed
 * entries and `.crc` checksums; a glob (`*`, `?`, `[…]`, `**`). Nothing found → `INPUT_NOT_FOUND`.
 */
export async function resolveParquetInputs(patterns: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const pattern of patterns) {
    let info;
    try {
      info = await stat(pattern);
    } catch {
      info = undefined;
    }
    let found: string[];
    if (info?.isFile() === true) found = [pattern];
    else if (info?.isDirectory() === true) found = (await walk(pattern)).sort();
    else if (GLOB_CHARACTERS.test(pattern)) found = (await expandGlob(pattern)).sort();
    else found = [];
    if (found.length === 0) {
      throw new TfpipeError('INPUT_NOT_FOUND', info === undefined ? 'no such file' : 'no Parquet files', {
        stage: 'parquetSource',
        fatal: true,
        position: { file: pattern },
      });
    }
    for (const file of found) files.push(file);
  }
  return files;
}

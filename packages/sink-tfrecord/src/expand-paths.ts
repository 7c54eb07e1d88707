import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { TfpipeError } from '@tfpipe/core';

const GLOB_CHARS = /[*?[{]/;
/** Files a glob never picks up: index files and manifests that sit beside shards. */
const SIDECARS = /\.(idx|manifest\.json)$/;

/** True when `pattern` holds glob syntax (`*`, `?`, `[…]`, `{a,b}`). */
export function isGlob(pattern: string): boolean {
  return GLOB_CHARS.test(pattern);
}

/** `{a,b}` alternatives expanded, nested ones too: `x.{gz,{zz,tfrecord}}` → three patterns. */
export function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{');
  if (open < 0) return [pattern];
  let depth = 0;
  const commas: number[] = [];
  for (let index = open; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === '{') depth++;
    else if (char === ',' && depth === 1) commas.push(index);
    else if (char === '}' && --depth === 0) {
      const bounds = [open, ...commas, index];
      const head = pattern.slice(0, open);
      const tail = pattern.slice(index + 1);
      return bounds
        .slice(1)
        .flatMap((end, part) => expandBraces(head + pattern.slice(bounds[part]! + 1, end) + tail));
    }
  }
  return [pattern];
}

/** A regular expression for one path segment: `*` and `?` never match `/` or a leading dot. */
export function segmentPattern(segment: string): RegExp {
  let source = '';
  for (let index = 0; index < segment.length; index++) {
    const char = segment[index]!;
    if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '[') {
      const close = segment.indexOf(']', index + 2);
      if (close < 0) source += '\\[';
      else {
        const body = segment
          .slice(index + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        source += `[${body}]`;
        index = close;
      }
    } else source += char.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^(?!\\.)${source}$`);
}

async function walk(base: string, segments: readonly string[], out: Set<string>): Promise<void> {
  if (segments.length === 0) {
    const info = await stat(base).catch(() => undefined);
    if (info?.isFile()) out.add(base);
    return;
  }
  const [segment, ...rest] = segments as [string, ...string[]];
  if (segment === '**') {
    await walk(base, rest, out);
    for (const entry of await listDirectories(base)) await walk(join(base, entry), segments, out);
    return;
  }
  if (!isGlob(segment)) return walk(join(base, segment), rest, out);
  const pattern = segmentPattern(segment);
  const entries = await readdir(base).catch(() => [] as string[]);
  for (const entry of entries.sort()) if (pattern.test(entry)) await walk(join(base, entry), rest, out);
}

async function listDirectories(base: string): Promise<string[]> {
  const entries = await readdir(base, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
}

/**
 * The files named by `paths`: plain paths as given (in order), globs (`*`, `?`, `[…]`, `**`, `{a,b}`)
 * expanded to sorted regular files, skipping dot-files, `.idx` and `.manifest.json` sidecars.
 * @throws TfpipeError `INPUT_NOT_FOUND` when a plain path is missing or a glob matches nothing.
 */
export async function expandPaths(paths: string | readonly string[], stage: string): Promise<string[]> {
  const files: string[] = [];
  for (const path of typeof paths === 'string' ? [paths] : paths) {
    if (!isGlob(path)) {
      files.push(path);
      continue;
    }
    const found = new Set<string>();
    for (const pattern of expandBraces(path)) {
      const absolute = pattern.startsWith('/');
      const segments = pattern.split('/').filter((segment, index) => segment !== '' || index === 0);
      const base = absolute ? '/' : '.';
      const start = absolute ? segments.slice(1) : segments;
      await walk(base, start, found);
    }
    const matches = [...found].filter((file) => !SIDECARS.test(file)).sort();
    if (matches.length === 0) {
      throw new TfpipeError('INPUT_NOT_FOUND', `no file matches ${JSON.stringify(path)}`, {
        stage,
        fatal: true,
      });
    }
    // A loop, not `push(...matches)`: a glob may match more files than a call takes arguments.
    for (const file of matches)
      files.push(!path.startsWith('./') && file.startsWith('./') ? file.slice(2) : file);
  }
  return files;
}

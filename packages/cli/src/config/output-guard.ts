import { randomBytes } from 'node:crypto';
import { lstat, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, relative, isAbsolute } from 'node:path';
import { TfpipeError } from '@tfpipe/core';

/** What {@link checkNewFile} must not touch besides existing files. */
export interface NewFileRules {
  /** Replace an existing regular file (the user passed `--overwrite`). */
  readonly overwrite: boolean;
  /** The flag that names the file, for the message (`--save-config`). */
  readonly flag: string;
  /** The run's inputs: the file may be none of them, nor inside an input directory. */
  readonly inputs?: readonly string[];
  /** The run's outputs (a file or a directory): the file may be none of them. */
  readonly outputs?: readonly string[];
}

function inside(parent: string, child: string): boolean {
  const path = relative(parent, child);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

async function sameFile(left: string, right: string): Promise<boolean> {
  const [a, b] = await Promise.all([stat(left).catch(() => undefined), stat(right).catch(() => undefined)]);
  return a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;
}

/**
 * Refuses, before a run, a file the CLI is asked to write beside it: one of the run's inputs or
 * outputs (or inside an input directory), a directory, or an existing file without `--overwrite`.
 * @throws TfpipeError `OUTPUT_EXISTS` naming the file and the flag.
 */
export async function checkNewFile(file: string, rules: NewFileRules): Promise<void> {
  const fail = (detail: string, reason?: string): never => {
    throw new TfpipeError('OUTPUT_EXISTS', detail, {
      stage: 'cli',
      fatal: true,
      position: { file },
      ...(reason === undefined ? {} : { reason }),
    });
  };
  for (const path of rules.inputs ?? []) {
    const info = await stat(path).catch(() => undefined);
    if (file === path || (await sameFile(file, path)) || (info?.isDirectory() === true && inside(path, file)))
      fail(`${rules.flag} names an input of this run`, 'give a file outside the input');
  }
  for (const path of rules.outputs ?? []) {
    if (file === path || (await sameFile(file, path)))
      fail(`${rules.flag} names the output of this run`, 'give another file');
  }
  const info = await lstat(file).catch(() => undefined);
  if (info === undefined) return;
  if (!info.isFile()) fail(`${rules.flag} names a directory or a special file`);
  if (!rules.overwrite)
    fail(`${rules.flag} would replace an existing file`, 'pass --overwrite to replace it');
}

/**
 * Writes `text` to `file` whole or not at all: into a temporary beside it (synced), then renamed
 * over it.
 */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  const temporary = join(
    dirname(file),
    `.${basename(file)}.tfpipe-tmp-${process.pid}-${randomBytes(6).toString('hex')}`,
  );
  try {
    const handle = await open(temporary, 'wx');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw new TfpipeError('OUTPUT_UNWRITABLE', 'cannot write the file', {
      stage: 'cli',
      fatal: true,
      cause: error,
      position: { file },
      reason: (error as Error).message,
    });
  }
}

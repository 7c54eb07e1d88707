import { readFile, stat } from 'node:fs/promises';
import { notAFile, readError } from '@tfpipe/node-utils';
import type { TfpipeError } from '@tfpipe/core';

const STAGE = 'imageSource';

/**
 * A whole annotation or list file as text. A missing or unreadable input is fatal: without it there is
 * nothing to convert.
 * @throws TfpipeError `INPUT_NOT_FOUND`, `INPUT_NOT_FILE` or `IO`, all fatal
 */
export async function readInputText(file: string): Promise<string> {
  await checkInputFile(file);
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw inputError(error, file);
  }
}

/**
 * Checks that an input file exists and is a regular file: a FIFO named `x.xml` is refused, not waited on.
 * @throws TfpipeError `INPUT_NOT_FOUND`, `INPUT_NOT_FILE` or `IO`, all fatal
 */
export async function checkInputFile(file: string): Promise<void> {
  let info;
  try {
    info = await stat(file);
  } catch (error) {
    throw inputError(error, file);
  }
  if (!info.isFile()) throw notAFile(file, STAGE, info.isDirectory());
}

/** A fatal `TfpipeError` for a failed file-system call on an input path (node-utils' mapping). */
export function inputError(error: unknown, file: string): TfpipeError {
  return readError(error, file, STAGE, 'reading the input');
}

import { readFile, stat } from 'node:fs/promises';
import { TfpipeError } from '@tfpipe/core';

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
 * Checks that an input file exists and is a file.
 * @throws TfpipeError `INPUT_NOT_FOUND`, `INPUT_NOT_FILE` or `IO`, all fatal
 */
export async function checkInputFile(file: string): Promise<void> {
  try {
    const info = await stat(file);
    if (!info.isFile()) {
      throw new TfpipeError('INPUT_NOT_FILE', 'not a file', {
        stage: 'imageSource',
        position: { file },
        fatal: true,
      });
    }
  } catch (error) {
    throw inputError(error, file);
  }
}

/** A fatal `TfpipeError` for a failed file-system call on an input path. */
export function inputError(error: unknown, file: string): TfpipeError {
  if (TfpipeError.is(error)) return error;
  const code = (error as NodeJS.ErrnoException).code;
  return new TfpipeError(code === 'ENOENT' ? 'INPUT_NOT_FOUND' : 'IO', 'cannot read the input', {
    stage: 'imageSource',
    position: { file },
    cause: error,
    fatal: true,
    reason: (error as Error).message,
  });
}

import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { TfpipeError } from '@tfpipe/core';
import { readError } from './io-error.js';

/** An open regular file and its size when opened. */
export interface OpenedFile {
  readonly handle: FileHandle;
  /** Bytes, from `fstat` of the open handle. */
  readonly size: number;
}

/**
 * The error for a path that is not a regular file: a directory, a FIFO, a socket or a device.
 * @param directory - true when it is a directory (the message says so)
 */
export function notAFile(path: string, stage: string, directory: boolean): TfpipeError {
  const what = directory ? 'a directory' : 'not a regular file (a FIFO, socket or device)';
  return new TfpipeError('INPUT_NOT_FILE', `input is ${what}`, {
    stage,
    fatal: true,
    position: { file: path },
  });
}

/**
 * Opens `path` for reading only if it is a regular file. It is `stat`ed first (through symbolic
 * links), so a FIFO, socket or device is refused before any `open`, which on a FIFO blocks until a
 * writer appears. The open itself uses `O_NONBLOCK` and the handle is `fstat`ed again, so a path swapped
 * for a FIFO in between can neither block nor be read.
 * @throws TfpipeError `INPUT_NOT_FOUND`, `INPUT_NOT_FILE` or `IO`, all fatal, naming `path`.
 */
export async function openRegularFile(path: string, stage: string): Promise<OpenedFile> {
  const info = await stat(path).catch((error: unknown) => {
    throw readError(error, path, stage, 'opening the file');
  });
  if (!info.isFile()) throw notAFile(path, stage, info.isDirectory());
  // O_NONBLOCK is undefined on Windows, where opening a named pipe does not wait for a writer anyway.
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
  const handle = await open(path, flags).catch((error: unknown) => {
    throw readError(error, path, stage, 'opening the file');
  });
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw notAFile(path, stage, opened.isDirectory());
    return { handle, size: opened.size };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw TfpipeError.is(error) ? error : readError(error, path, stage, 'opening the file');
  }
}

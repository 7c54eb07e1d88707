import { TfpipeError } from '@tfpipe/core';

const DISK_FULL = new Set(['ENOSPC', 'EFBIG', 'EDQUOT']);
const UNWRITABLE = new Set([
  'EACCES',
  'EPERM',
  'EROFS',
  'ENOTDIR',
  'EISDIR',
  'ENOENT',
  'EEXIST',
  'ENAMETOOLONG',
]);
const NOT_FOUND = new Set(['ENOENT', 'ENOTDIR']);
const TOO_MANY_FILES = new Set(['EMFILE', 'ENFILE']);

/** The errno code of a Node file-system error, if any. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * A fatal TfpipeError for a failed write: `DISK_FULL` (ENOSPC, EFBIG, EDQUOT), `OUTPUT_UNWRITABLE`
 * (permissions, read-only file system, a path through a file) or `IO`, naming the file.
 */
export function writeError(error: unknown, file: string, stage: string, doing: string): TfpipeError {
  if (TfpipeError.is(error)) return error;
  const errno = errnoOf(error) ?? '';
  const reason = error instanceof Error ? error.message : String(error);
  const options = { stage, fatal: true, cause: error, reason, position: { file } };
  if (DISK_FULL.has(errno)) return new TfpipeError('DISK_FULL', `disk full ${doing}`, options);
  if (UNWRITABLE.has(errno))
    return new TfpipeError('OUTPUT_UNWRITABLE', `cannot write output ${doing}`, options);
  if (TOO_MANY_FILES.has(errno)) {
    return new TfpipeError('IO', `too many open files ${doing}`, {
      ...options,
      reason: `${errno}: raise the open-file limit (ulimit -n) or keep fewer files open at once`,
    });
  }
  return new TfpipeError('IO', `I/O error ${doing}`, options);
}

/** A fatal TfpipeError for a failed read: `INPUT_NOT_FOUND`, or `IO`, naming the file. */
export function readError(error: unknown, file: string, stage: string, doing: string): TfpipeError {
  if (TfpipeError.is(error)) return error;
  const errno = errnoOf(error) ?? '';
  const reason = error instanceof Error ? error.message : String(error);
  const options = { stage, fatal: true, cause: error, reason, position: { file } };
  if (NOT_FOUND.has(errno)) return new TfpipeError('INPUT_NOT_FOUND', `input not found ${doing}`, options);
  if (errno === 'EISDIR') return new TfpipeError('INPUT_NOT_FILE', `input is a directory ${doing}`, options);
  return new TfpipeError('IO', `I/O error ${doing}`, options);
}

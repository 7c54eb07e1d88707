import { readFile } from 'node:fs/promises';
import { TfpipeError } from '@tfpipe/core';
import { specFromJsonText, type ParsedSpecJson } from '@tfpipe/dataset';
import type { FlagValues } from '../command.js';
import { stringFlag } from '../flags.js';
import type { CliIo } from '../io.js';
import { inCwd } from './tfrecord-files.js';

/** The `--spec` file a command was given, read and checked, with its path as typed. */
export interface SpecFlag {
  /** The file, resolved against the command's working directory. */
  readonly file: string;
  /** Its specs. */
  readonly spec: ParsedSpecJson;
}

/**
 * Reads the `--spec FILE` flag: a JSON spec file (`tfpipe schema --format spec` writes one).
 * @returns undefined without the flag
 * @throws TfpipeError `INVALID_OPTION` for an unreadable file, text that is not JSON or a bad field
 *   (its JSON path, e.g. `--spec $.features.label.dtype: expected one of …`)
 */
export async function readSpecFlag(values: FlagValues, io: CliIo): Promise<SpecFlag | undefined> {
  const given = stringFlag(values, 'spec');
  if (given === undefined) return undefined;
  const file = inCwd(io, given);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new TfpipeError('INVALID_OPTION', `--spec: cannot read the spec file`, {
      stage: 'cli',
      fatal: true,
      cause: error,
      position: { file: given },
      reason: (error as Error).message,
    });
  }
  try {
    return { file, spec: specFromJsonText(text, given) };
  } catch (error) {
    if (!TfpipeError.is(error)) throw error;
    throw new TfpipeError(error.code, `--spec ${error.detail}`, {
      stage: 'cli',
      fatal: true,
      position: error.position,
    });
  }
}

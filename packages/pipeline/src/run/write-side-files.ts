import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import type { OpenedSource } from '@tfpipe/core/plugin';
import { writeError } from '@tfpipe/node-utils';

const STAGE = 'run';
const PLAIN_NAME = /^[^/\\]+$/;

/**
 * Writes the side files the source contributes (its `sideFiles` hook: label maps, vocabularies …)
 * into the staging directory, to be put in place with the shards. `taken` holds the names already
 * written there (the reader specs): a plugin may not replace them, nor name a path elsewhere.
 *
 * @returns the names written, in the order the source gave them.
 */
export async function writeSideFiles(
  staging: string,
  source: { readonly name: string },
  opened: OpenedSource<unknown>,
  taken: readonly string[],
): Promise<string[]> {
  const files = (await opened.sideFiles?.()) ?? [];
  const written: string[] = [];
  for (const { name, contents } of files) {
    const position = { file: name, field: 'sideFiles' };
    if (!PLAIN_NAME.test(name) || name === '.' || name === '..') {
      throw new TfpipeError('PATH_ESCAPE', `${source.name} named a side file outside the output directory`, {
        stage: STAGE,
        fatal: true,
        position,
        reason: 'a side file name is a plain file name',
      });
    }
    if (taken.includes(name) || written.includes(name)) {
      throw new TfpipeError('OUTPUT_EXISTS', `${source.name} named a side file the run already writes`, {
        stage: STAGE,
        fatal: true,
        position,
      });
    }
    const file = join(staging, name);
    await writeFile(file, contents).catch((error: unknown) => {
      throw writeError(error, file, STAGE, 'writing a side file');
    });
    written.push(name);
  }
  return written;
}

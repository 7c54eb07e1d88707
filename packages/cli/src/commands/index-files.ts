import { open, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import { tfrecordSource } from '@tfpipe/sink-tfrecord';
import { expandTfrecordPaths, releaseTemporary, temporaryPath } from '@tfpipe/sink-tfrecord/internal';
import { detectCompression } from '@tfpipe/sink-tfrecord/web';
import type { FlagValues } from '../command.js';
import { requirePositionals } from '../flags.js';
import { writeLine, type CliIo } from '../io.js';
import { printableName } from '../printable.js';
import { readOptions } from './read-options.js';

/** A frame's bytes beyond its payload: the 12-byte header and the 4-byte data CRC. */
const FRAME_OVERHEAD = 16;
/** Bytes that decide a file's compression (`detectCompression`). */
const HEAD_BYTES = 12;

async function compressionOf(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    return detectCompression(head.subarray(0, bytesRead), true);
  } finally {
    await handle.close();
  }
}

/** Writes `<file>.idx` for one file (under a temporary name, renamed once complete); returns its record count. */
async function indexFile(file: string, values: FlagValues): Promise<number> {
  const compression = await compressionOf(file);
  if (compression !== 'none') {
    throw new TfpipeError('INVALID_OPTION', `cannot index a ${compression ?? 'compressed'} file`, {
      stage: 'index',
      fatal: true,
      position: { file },
      reason:
        'an index holds byte offsets of an uncompressed file (DALI reads no other): decompress it first',
    });
  }
  const lines: string[] = [];
  for await (const record of tfrecordSource({ ...readOptions(values), paths: [file], compression: 'none' }))
    lines.push(`${record.byteOffset} ${record.data.length + FRAME_OVERHEAD}\n`);
  const final = `${file}.idx`;
  const temporary = temporaryPath(dirname(final), basename(final));
  try {
    await writeFile(temporary, lines.join(''));
    await rename(temporary, final);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  } finally {
    releaseTemporary(temporary);
  }
  return lines.length;
}

/** `tfpipe index`: a DALI `.idx` beside each file, one `<offset> <size>` line per record. */
export async function indexFiles(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  const files = await expandTfrecordPaths(requirePositionals(positionals, 'FILE to index'), 'index');
  for (const file of files) {
    const records = await indexFile(file, values);
    await writeLine(io.stdout, `${records}\t${printableName(`${file}.idx`)}`);
  }
  return 0;
}

import { openAsBlob } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { TfpipeError } from '@tfpipe/core';
import { fileBytes } from '@tfpipe/sink-tfrecord/internal';
import { openRegularFile } from '@tfpipe/node-utils';
import type { RecordIndex, RecordRange, TfrecordFile } from '../tfrecord/tfrecord-file.js';

const STAGE = 'tfrecordDataset';
/** Bytes per file read, as `tfrecordSource` reads. */
const CHUNK_BYTES = 1024 * 1024;
/** Chunks read before they are asked for. */
const READ_AHEAD = 1;

/** A TFRecord file on disk: read in 1 MiB chunks, a range through a file-backed `Blob`, its `<path>.idx` index. */
export function nodeFile(path: string): TfrecordFile {
  return {
    name: path,
    open: (range) =>
      // One chunk read ahead: the next read runs while this chunk is verified and parsed.
      (range === undefined
        ? fileBytes(path, CHUNK_BYTES, STAGE, () => undefined)
        : rangeBytes(path, range)
      ).pipeThrough(new TransformStream<Uint8Array, Uint8Array>(undefined, { highWaterMark: READ_AHEAD })),
    index: () => readRecordIndex(path),
  };
}

function rangeBytes(path: string, range: RecordRange): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (reader === undefined) {
          // The same checks and errors as a whole-file read (missing, not a regular file) first.
          await (await openRegularFile(path, STAGE)).handle.close();
          const blob = await openAsBlob(path);
          reader = (blob.slice(range.start, range.end).stream() as ReadableStream<Uint8Array>).getReader();
        }
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader?.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

function indexError(path: string, line: number, reason: string): TfpipeError {
  return new TfpipeError('INPUT_CHANGED', 'the index does not match its file', {
    stage: STAGE,
    fatal: true,
    position: { file: `${path}.idx`, line },
    reason,
  });
}

/**
 * The records of `path` from `<path>.idx` (DALI's `<offset> <size>` lines, as `tfrecordSink` writes
 * them), or `undefined` without one. The index must tile the file exactly: frames back to back from
 * byte 0 to the file's size, each at least a frame's 16 bytes.
 * @throws TfpipeError `INPUT_CHANGED` naming the index line that does not match
 */
export async function readRecordIndex(path: string): Promise<RecordIndex | undefined> {
  let text: string;
  try {
    text = await readFile(`${path}.idx`, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
  const opened = await openRegularFile(path, STAGE);
  await opened.handle.close();
  const offsets: number[] = [];
  const sizes: number[] = [];
  let end = 0;
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((line, at) => {
    const match = /^(\d+) (\d+)$/.exec(line.trim());
    if (match === null)
      throw indexError(path, at + 1, `expected "<offset> <size>", got ${JSON.stringify(line)}`);
    const offset = Number(match[1]);
    const size = Number(match[2]);
    if (offset !== end) throw indexError(path, at + 1, `record at byte ${offset}, expected ${end}`);
    if (size < 16) throw indexError(path, at + 1, `a frame of ${size} bytes is shorter than 16`);
    offsets.push(offset);
    sizes.push(size);
    end = offset + size;
  });
  if (end !== opened.size)
    throw indexError(path, lines.length, `the records end at byte ${end}, the file at ${opened.size}`);
  return { offsets, sizes };
}

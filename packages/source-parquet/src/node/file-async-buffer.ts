import { open } from 'node:fs/promises';
import { TfpipeError } from '@tfpipe/core';
import type { OpenedParquetInput } from '../create-parquet-source.js';

function ioError(error: unknown, file: string): TfpipeError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT')
    return new TfpipeError('INPUT_NOT_FOUND', 'no such file', {
      stage: 'parquetSource',
      fatal: true,
      position: { file },
    });
  if (code === 'EISDIR')
    return new TfpipeError('INPUT_NOT_FILE', 'not a file', {
      stage: 'parquetSource',
      fatal: true,
      position: { file },
    });
  return new TfpipeError('IO', 'cannot read', {
    stage: 'parquetSource',
    fatal: true,
    position: { file },
    cause: error,
    reason: String(code ?? error),
  });
}

/**
 * Opens a file as an hyparquet `AsyncBuffer` over one `FileHandle`: each slice is a positioned
 * `read` of exactly its bytes (no stream, no read-ahead). `close()` releases the handle.
 */
export async function openFileAsyncBuffer(file: string): Promise<OpenedParquetInput> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw ioError(error, file);
  }
  const opened = handle;
  let size: number;
  try {
    size = (await opened.stat()).size;
  } catch (error) {
    await opened.close();
    throw ioError(error, file);
  }
  let closed = false;
  return {
    buffer: {
      byteLength: size,
      async slice(start, end = size) {
        const length = Math.max(0, end - start);
        const target = new Uint8Array(length);
        let done = 0;
        while (done < length) {
          let bytesRead: number;
          try {
            ({ bytesRead } = await opened.read(target, done, length - done, start + done));
          } catch (error) {
            throw ioError(error, file);
          }
          if (bytesRead === 0) {
            throw new TfpipeError('INPUT_CHANGED', 'file shrank while being read', {
              stage: 'parquetSource',
              fatal: true,
              position: { file, byteOffset: start + done },
            });
          }
          done += bytesRead;
        }
        return target.buffer;
      },
    },
    async close() {
      if (closed) return;
      closed = true;
      await opened.close();
    },
  };
}

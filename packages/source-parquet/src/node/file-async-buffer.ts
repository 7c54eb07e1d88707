import { TfpipeError } from '@tfpipe/core';
import { openRegularFile, readError } from '@tfpipe/node-utils';
import type { OpenedParquetInput } from '../create-parquet-source.js';

const STAGE = 'parquetSource';

/**
 * Opens a file as an hyparquet `AsyncBuffer` over one `FileHandle`: each slice is a positioned
 * `read` of exactly its bytes (no stream, no read-ahead). `close()` releases the handle.
 */
export async function openFileAsyncBuffer(file: string): Promise<OpenedParquetInput> {
  const { handle: opened, size } = await openRegularFile(file, STAGE);
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
            throw readError(error, file, STAGE, 'reading the file');
          }
          if (bytesRead === 0) {
            throw new TfpipeError('INPUT_CHANGED', 'file shrank while being read', {
              stage: STAGE,
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

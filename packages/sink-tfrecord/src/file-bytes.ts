import type { FileHandle } from 'node:fs/promises';
import { TfpipeError } from '@tfpipe/core';
import { readError } from '@tfpipe/node-utils';
import { openRegularFile } from '@tfpipe/node-utils';

/**
 * A pull-based byte stream of one file read through a `FileHandle` in chunks of `chunkBytes`: it opens
 * the file on the first read, reads one chunk per pull, and closes the handle at the end, on cancel
 * and on error. Only regular files are read (`INPUT_NOT_FILE` for a directory, FIFO or device, checked
 * before the open: opening a FIFO blocks until a writer appears). A file whose size changes while it is read is `INPUT_CHANGED`.
 */
export function fileBytes(
  path: string,
  chunkBytes: number,
  stage: string,
  onBytes: (count: number) => void,
): ReadableStream<Uint8Array> {
  let handle: FileHandle | undefined;
  let size = 0;
  let position = 0;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await handle?.close().catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (handle === undefined) {
            const opened = await openRegularFile(path, stage);
            if (closed) {
              // Cancelled while the file was being opened.
              await opened.handle.close();
              return;
            }
            handle = opened.handle;
            size = opened.size;
          }
          const buffer = new Uint8Array(Math.max(1, Math.min(chunkBytes, size - position + 1)));
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
          if (bytesRead === 0 || position + bytesRead > size) {
            if (position + bytesRead !== size) {
              throw new TfpipeError(
                'INPUT_CHANGED',
                `input changed while it was read (${size} bytes when opened, ${position + bytesRead} now)`,
                {
                  stage,
                  fatal: true,
                  position: { file: path, byteOffset: Math.min(size, position + bytesRead) },
                },
              );
            }
            await close();
            return controller.close();
          }
          position += bytesRead;
          onBytes(bytesRead);
          controller.enqueue(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
        } catch (error) {
          await close();
          throw TfpipeError.is(error) ? error : readError(error, path, stage, 'reading the file');
        }
      },
      cancel: close,
    },
    { highWaterMark: 0 },
  );
}

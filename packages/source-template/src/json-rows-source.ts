import { open, type FileHandle } from 'node:fs/promises';
import {
  attachReport,
  LineSplitter,
  RecordErrorPolicy,
  utf16Advice,
  utf16Evidence,
  withPosition,
  type Positioned,
  type SourceFactory,
} from '@tfpipe/core/plugin';
import { TfpipeError, type RecordErrorOptions } from '@tfpipe/core';

/** One row: a JSON object from one line. Hand it to `buildExamples` to make Examples. */
export type JsonRow = Record<string, unknown>;

/** Options of {@link jsonRowsSource}. Record errors follow `onError` / `onSkip`. */
export interface JsonRowsSourceOptions extends RecordErrorOptions {
  /** The JSON Lines file: one JSON object per line; blank lines are ignored. */
  readonly path: string;
  /**
   * Bytes read from the file at a time, in bytes.
   * @default 65536
   */
  readonly chunkBytes?: number;
  /**
   * Longest line accepted, in bytes: a longer one is a fatal `RECORD_TOO_LARGE` naming the file
   * and line, raised as soon as the line outgrows it rather than after buffering all of it.
   * @default 67108864 (64 MiB)
   */
  readonly maxLineBytes?: number;
}

const STAGE = 'jsonRowsSource';

/**
 * Rows from a JSON Lines file, read lazily: the file is read one chunk at a time, only when the
 * consumer wants rows, and closed at the end, on error and on cancel. Each row carries its position
 * `{ file, line, row, recordIndex }`. A line that is not JSON is a `JSON_PARSE` error, one that is
 * not an object a `JSON_FORM` error; both are record errors (`onError: 'skip'` drops the line).
 */
export const jsonRowsSource: SourceFactory<JsonRowsSourceOptions, Positioned<JsonRow>> = (options) => {
  // Check options when the factory is called, naming the option.
  if (typeof options?.path !== 'string' || options.path === '') {
    throw new TfpipeError('INVALID_OPTION', 'path must be a non-empty string', { stage: STAGE, fatal: true });
  }
  const chunkBytes = options.chunkBytes ?? 65_536;
  if (!Number.isInteger(chunkBytes) || chunkBytes < 1) {
    throw new TfpipeError('INVALID_OPTION', `chunkBytes must be a positive integer, got ${chunkBytes}`, {
      stage: STAGE,
      fatal: true,
    });
  }
  const maxLineBytes = options.maxLineBytes ?? 64 * 1024 * 1024;
  if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1) {
    throw new TfpipeError('INVALID_OPTION', `maxLineBytes must be a positive integer, got ${maxLineBytes}`, {
      stage: STAGE,
      fatal: true,
    });
  }
  const file = options.path;
  const policy = new RecordErrorPolicy(options);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const buffer = new Uint8Array(chunkBytes);
  // Splits bytes, not text: linear however long a line is, and bounded by maxLineBytes.
  const splitter = new LineSplitter({ maxLineBytes, limitName: 'maxLineBytes', file, stage: STAGE });
  let handle: FileHandle | undefined;
  let lines: Uint8Array[] = []; // complete lines not yet turned into rows (views of `buffer`)
  let next = 0; // the first of `lines` not yet turned into a row
  let lineNumber = 0;
  let encodingChecked = false;
  let rows = 0;
  let ended = false;
  let cancelled = false;

  async function close(): Promise<void> {
    const open = handle;
    handle = undefined;
    await open?.close();
  }

  /** Reads the next chunk into `lines`; at the end of the file, the last unterminated line. */
  async function readChunk(): Promise<void> {
    const { bytesRead } = await handle!.read(buffer, 0, chunkBytes, null);
    const chunk = buffer.subarray(0, bytesRead);
    if (!encodingChecked && bytesRead > 0) {
      encodingChecked = true;
      // UTF-16 ASCII is valid UTF-8 (a NUL after every character): say what it is, not "malformed JSON".
      const encoding = utf16Evidence(chunk);
      if (encoding !== undefined) {
        throw new TfpipeError('JSON_PARSE', 'not UTF-8', {
          stage: STAGE,
          fatal: true,
          position: { file, line: 1, byteOffset: 0 },
          reason: utf16Advice(encoding, file),
        });
      }
    }
    next = 0;
    if (bytesRead > 0) lines = splitter.push(chunk);
    else {
      const last = splitter.end();
      lines = last === undefined ? [] : [last];
      ended = true;
      await close();
    }
  }

  function toRow(bytes: Uint8Array): Positioned<JsonRow> | undefined {
    lineNumber++;
    const position = { file, line: lineNumber, row: rows, recordIndex: rows };
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch (error) {
      throw new TfpipeError('JSON_PARSE', 'invalid UTF-8', { stage: STAGE, position, cause: error });
    }
    if (text.trim() === '') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new TfpipeError('JSON_PARSE', 'malformed JSON', { stage: STAGE, position, cause: error });
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new TfpipeError('JSON_FORM', 'expected a JSON object per line', { stage: STAGE, position });
    }
    return withPosition(value as JsonRow, position);
  }

  const stream = new ReadableStream<Positioned<JsonRow>>(
    {
      async start() {
        try {
          handle = await open(file, 'r');
        } catch (error) {
          if (cancelled) return;
          const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
          throw new TfpipeError(missing ? 'INPUT_NOT_FOUND' : 'IO', 'cannot open the file', {
            stage: STAGE,
            position: { file },
            cause: error,
            fatal: true,
          });
        }
        // A cancel can arrive while the file is still opening: close it now, or it would leak.
        if (cancelled) await close();
      },
      async pull(controller) {
        try {
          // Enqueue only what the consumer asked for (desiredSize): this is the backpressure.
          while ((controller.desiredSize ?? 0) > 0) {
            if (next === lines.length) {
              if (ended) return controller.close();
              await readChunk();
              continue;
            }
            const line = lines[next++]!;
            try {
              const row = toRow(line);
              if (row !== undefined) {
                controller.enqueue(row);
                rows++;
              }
            } catch (error) {
              policy.handle(error); // rethrows unless onError is 'skip'
            }
          }
        } catch (error) {
          await close().catch(() => undefined);
          throw TfpipeError.is(error)
            ? error
            : new TfpipeError('IO', 'cannot read the file', {
                stage: STAGE,
                position: { file },
                cause: error,
              });
        }
      },
      async cancel() {
        cancelled = true;
        await close();
      },
    },
    { highWaterMark: 16 },
  );
  return attachReport(stream, () => ({
    stage: STAGE,
    records: rows,
    skipped: policy.skipped,
    skippedErrors: policy.errors,
  }));
};

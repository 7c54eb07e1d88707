import type { FileHandle } from 'node:fs/promises';
import {
  attachReport,
  exampleFromJson,
  LineSplitter,
  RecordErrorPolicy,
  sequenceExampleFromJson,
  TfpipeError,
  withPosition,
  type Example,
  type PayloadType,
  type RecordErrorOptions,
  type Reporter,
  type SequenceExample,
  utf16Advice,
  utf16Evidence,
} from '@tfpipe/core';
import { openRegularFile } from '@tfpipe/sink-tfrecord';

/** Options of {@link jsonLinesSource}. */
export interface JsonLinesSourceOptions extends RecordErrorOptions {
  /** The JSON Lines file: one Example (or SequenceExample) per line in protobuf's JSON form. */
  readonly path: string;
  /** What each line holds. @default 'Example' */
  readonly payloadType?: PayloadType;
  /**
   * Longest line accepted, in bytes: a longer one is a fatal `RECORD_TOO_LARGE` naming the file
   * and line, found as soon as the line outgrows it (a 100 MB line took 1.8 GB to parse).
   * @default 67108864 (64 MiB)
   */
  readonly maxLineBytes?: number;
}

const CHUNK_BYTES = 1 << 20;
/** The default of {@link JsonLinesSourceOptions.maxLineBytes}. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Examples from a JSON Lines file in protobuf's JSON form, read lazily. A malformed line is a
 * `JSON_PARSE` (bad JSON) or `JSON_FORM` (not an Example) error with the file and line; blank lines are
 * skipped.
 */
export function jsonLinesSource(
  options: JsonLinesSourceOptions,
): ReadableStream<Example | SequenceExample> & Reporter {
  const policy = new RecordErrorPolicy(options);
  const fromJson = options.payloadType === 'SequenceExample' ? sequenceExampleFromJson : exampleFromJson;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1) {
    throw new TfpipeError(
      'INVALID_OPTION',
      `maxLineBytes must be a positive integer, got ${String(maxLineBytes)}`,
      {
        stage: 'jsonLinesSource',
        fatal: true,
        position: { field: 'maxLineBytes' },
      },
    );
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const splitter = new LineSplitter({
    maxLineBytes,
    limitName: 'maxLineBytes in the jsonl source options of a pipeline file',
    file: options.path,
    stage: 'jsonLinesSource',
  });
  let handle: FileHandle | undefined;
  let line = 0;
  let encodingChecked = false;
  let recordIndex = 0;
  let ended = false;
  const buffer = new Uint8Array(CHUNK_BYTES);

  function parseLine(
    bytes: Uint8Array,
    controller: ReadableStreamDefaultController<Example | SequenceExample>,
  ): void {
    line++;
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch (error) {
      throw new TfpipeError('JSON_PARSE', 'invalid UTF-8', {
        stage: 'jsonLinesSource',
        position: { file: options.path, line },
        cause: error,
      });
    }
    if (text.trim() === '') return;
    const position = { file: options.path, line, recordIndex };
    try {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw new TfpipeError('JSON_PARSE', 'malformed JSON', {
          stage: 'jsonLinesSource',
          position,
          reason: (error as Error).message,
        });
      }
      const record = fromJson(json);
      controller.enqueue(withPosition(record, position));
      recordIndex++;
    } catch (error) {
      policy.handle(TfpipeError.is(error) ? error.withPosition(position) : error);
    }
  }

  const stream = new ReadableStream<Example | SequenceExample>(
    {
      async start() {
        // Stat before open: a FIFO is INPUT_NOT_FILE at once instead of an open that waits for a writer.
        handle = (await openRegularFile(options.path, 'jsonLinesSource')).handle;
      },
      async pull(controller) {
        try {
          await fill(controller);
        } catch (error) {
          await handle?.close().catch(() => undefined);
          handle = undefined;
          throw error;
        }
      },
      async cancel() {
        await handle?.close();
        handle = undefined;
      },
    },
    { highWaterMark: 64 },
  );
  return attachReport(stream, () => ({
    stage: 'jsonLinesSource',
    records: recordIndex,
    skipped: policy.skipped,
    skippedErrors: policy.errors,
  }));

  /** A UTF-16 file is told apart from bad UTF-8 (or, for ASCII text, NUL-riddled JSON). */
  function checkNotUtf16(head: Uint8Array): void {
    const encoding = utf16Evidence(head);
    if (encoding === undefined) return;
    throw new TfpipeError('JSON_PARSE', 'not UTF-8', {
      stage: 'jsonLinesSource',
      fatal: true,
      position: { file: options.path, line: 1, byteOffset: 0 },
      reason: utf16Advice(encoding, options.path),
    });
  }

  async function fill(controller: ReadableStreamDefaultController<Example | SequenceExample>): Promise<void> {
    while (controller.desiredSize !== null && controller.desiredSize > 0 && !ended) {
      const { bytesRead } = await handle!.read(buffer, 0, buffer.length, null);
      const chunk = buffer.subarray(0, bytesRead);
      if (!encodingChecked) checkNotUtf16(chunk);
      encodingChecked = true;
      const last = bytesRead === 0 ? splitter.end() : undefined;
      const lines = bytesRead === 0 ? (last === undefined ? [] : [last]) : splitter.push(chunk);
      for (const entry of lines) parseLine(entry, controller);
      if (bytesRead === 0) {
        ended = true;
        await handle!.close();
        handle = undefined;
        controller.close();
      }
    }
  }
}

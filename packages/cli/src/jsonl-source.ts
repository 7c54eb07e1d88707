import type { FileHandle } from 'node:fs/promises';
import {
  attachReport,
  exampleFromJson,
  RecordErrorPolicy,
  sequenceExampleFromJson,
  TfpipeError,
  withPosition,
  type Example,
  type PayloadType,
  type RecordErrorOptions,
  type Reporter,
  type SequenceExample,
} from '@tfpipe/core';
import { openRegularFile } from '@tfpipe/sink-tfrecord';

/** Options of {@link jsonLinesSource}. */
export interface JsonLinesSourceOptions extends RecordErrorOptions {
  /** The JSON Lines file: one Example (or SequenceExample) per line in protobuf's JSON form. */
  readonly path: string;
  /** What each line holds. @default 'Example' */
  readonly payloadType?: PayloadType;
}

const CHUNK_BYTES = 1 << 20;

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
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let handle: FileHandle | undefined;
  let pending = '';
  let line = 0;
  let recordIndex = 0;
  let ended = false;
  const buffer = new Uint8Array(CHUNK_BYTES);

  function parseLine(
    text: string,
    controller: ReadableStreamDefaultController<Example | SequenceExample>,
  ): void {
    line++;
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

  async function fill(controller: ReadableStreamDefaultController<Example | SequenceExample>): Promise<void> {
    while (controller.desiredSize !== null && controller.desiredSize > 0 && !ended) {
      const { bytesRead } = await handle!.read(buffer, 0, buffer.length, null);
      let text: string;
      try {
        text =
          bytesRead === 0
            ? decoder.decode()
            : decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
      } catch (error) {
        throw new TfpipeError('JSON_PARSE', 'invalid UTF-8', {
          stage: 'jsonLinesSource',
          position: { file: options.path, line: line + 1 },
          cause: error,
        });
      }
      const lines = (pending + text).split('\n');
      pending = bytesRead === 0 ? '' : (lines.pop() ?? '');
      for (const entry of lines) parseLine(entry.endsWith('\r') ? entry.slice(0, -1) : entry, controller);
      if (bytesRead === 0) {
        ended = true;
        await handle!.close();
        handle = undefined;
        controller.close();
      }
    }
  }
}

import { TfpipeError } from '@tfpipe/core';
import { invalidOption } from '../pipeline/chunks.js';

/** A byte range of a file and the index of its first record: what a record shard reads. */
export interface RecordRange {
  /** Offset of the range's first byte (its first record's frame). */
  readonly start: number;
  /** Offset just past its last byte. */
  readonly end: number;
  /** The index in the file of the range's first record. */
  readonly firstRecord: number;
}

/** One input of a `tfrecordDataset`: a file, Blob, URL or stream, opened afresh for each pass. */
export interface TfrecordFile {
  /** The name errors, records and reports use: the path, `File.name`, the URL. */
  readonly name: string;
  /** The file's bytes, or a range of them; a new stream per call. */
  open(range?: RecordRange): ReadableStream<Uint8Array>;
  /** The file's DALI index (`.idx`): each record's frame offset and size, when there is one. */
  index?(): Promise<RecordIndex | undefined>;
}

/** The record offsets and frame sizes of one file, from its `.idx` (`<offset> <size>` lines). */
export interface RecordIndex {
  readonly offsets: readonly number[];
  readonly sizes: readonly number[];
}

/** What the web entry reads: a `Blob` (or `File`), a `URL` (fetched), or a byte stream (one pass only). */
export type WebTfrecordInput = Blob | URL | ReadableStream<Uint8Array>;

const STAGE = 'tfrecordDataset';

/** The {@link TfrecordFile}s of the web entry's inputs. */
export function webFiles(inputs: WebTfrecordInput | readonly WebTfrecordInput[]): TfrecordFile[] {
  const list = Array.isArray(inputs) ? (inputs as readonly WebTfrecordInput[]) : [inputs as WebTfrecordInput];
  return list.map((input, position) => webFile(input, position));
}

function webFile(input: WebTfrecordInput, position: number): TfrecordFile {
  if (input instanceof Blob) {
    const name = typeof (input as File).name === 'string' ? (input as File).name : `blob ${position}`;
    return {
      name,
      open: (range) => (range === undefined ? input : input.slice(range.start, range.end)).stream(),
    };
  }
  if (input instanceof URL) return { name: input.href, open: (range) => fetchBytes(input, range) };
  if (input instanceof ReadableStream) {
    let used = false;
    return {
      name: `stream ${position}`,
      open() {
        if (used) {
          throw invalidOption(
            STAGE,
            `input ${position} is a ReadableStream, which reads once: pass a Blob or a URL to read it again (repeat, a second pass)`,
          );
        }
        used = true;
        return input;
      },
    };
  }
  throw invalidOption(
    STAGE,
    typeof input === 'string'
      ? `input ${position} is a string: file paths and globs need '@tfpipe/dataset/node'; pass new URL(...) to fetch`
      : `input ${position} must be a Blob, a URL or a ReadableStream of bytes`,
  );
}

/** The body of `url` (a byte range of it with an HTTP `Range` request) as a pull-based stream. */
function fetchBytes(url: URL, range: RecordRange | undefined): ReadableStream<Uint8Array> {
  let body: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (body === undefined) {
          const headers: Record<string, string> =
            range === undefined ? {} : { Range: `bytes=${range.start}-${range.end - 1}` };
          const response = await fetch(url, { headers });
          if (!response.ok || response.body === null || (range !== undefined && response.status !== 206))
            throw new TfpipeError(
              response.status === 404 ? 'INPUT_NOT_FOUND' : 'IO',
              'cannot fetch the input',
              {
                stage: STAGE,
                fatal: true,
                position: { file: url.href },
                reason: `HTTP ${response.status}${range === undefined ? '' : ' to a Range request (206 expected)'}`,
              },
            );
          body = response.body.getReader();
        }
        const { done, value } = await body.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => body?.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

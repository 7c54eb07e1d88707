// The worker side of parse-workers.ts, shared by Node's worker thread (node/parse-worker.ts) and the
// browser's module Web Worker (parse-worker-web.ts): checks the data CRCs of a batch of serialized
// Examples (when it comes unchecked), parses it with the worker's spec and builds the reply.
import { TfpipeError } from '@tfpipe/core';
import { unmaskCrc } from '@tfpipe/sink-tfrecord/web';
import { BatchParser } from '../parse/parse-example.js';
import type { SpanRecord } from '../parse/parse-example.js';
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import { toWorkerError } from './parse-workers.js';
import type { SpanReply, SpanRequest } from './parse-workers.js';
import { packStrings } from './packed-strings.js';

/** The CRC-32C of `bytes[start, end)` (`view` is a DataView over the same bytes). */
export type RangeCrc = (bytes: Uint8Array, view: DataView, start: number, end: number) => number;

const EMPTY = new Uint8Array(0);

/** Each record's file name, from the request's runs (`runOf` in parse-workers.ts, for every record at once). */
function recordFiles(request: SpanRequest): string[] {
  const names: string[] = [];
  let run = 0;
  for (let index = 0; index < request.count; index++) {
    while (index >= request.runEnds[run]!) run++;
    names.push(request.files[run]!);
  }
  return names;
}

/** Fails with the reader's own error at the first record whose data CRC does not hold. */
function checkCrcs(request: SpanRequest, crcs: Uint32Array, files: readonly string[], crc: RangeCrc): void {
  const { bytes, ends, count } = request;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let start = 0;
  for (let index = 0; index < count; index++) {
    const end = ends[index]!;
    if (crc(bytes, view, start, end) !== unmaskCrc(crcs[index]!))
      throw new TfpipeError('RECORD_CRC', 'corrupted record', {
        stage: 'tfrecordDataset',
        reason: 'data CRC mismatch',
        position: {
          file: files[index]!,
          byteOffset: request.byteOffsets[index]!,
          recordIndex: request.recordIndexes[index]!,
        },
      });
    start = end;
  }
}

/**
 * Answers parse requests in a worker: `answer(request)` is the reply to post and the buffers it moves
 * (none for an error).
 */
export function spanAnswerer(
  spec: ExampleParseSpec,
  crc: RangeCrc,
): (request: SpanRequest & { id: number }) => { reply: SpanReply; transfer: ArrayBuffer[] } {
  const parser = new BatchParser(spec);
  const parse = (request: SpanRequest & { id: number }, transfer: ArrayBuffer[]): SpanReply => {
    const files = recordFiles(request);
    if (request.crcs !== undefined) checkCrcs(request, request.crcs, files, crc);
    const places: SpanRecord[] = [];
    for (let index = 0; index < request.count; index++)
      places.push({
        data: EMPTY,
        file: files[index]!,
        recordIndex: request.recordIndexes[index]!,
        byteOffset: request.byteOffsets[index]!,
      });
    const batch = parser.parseSpans(request.bytes, request.ends, request.count, places);
    const strings = packStrings(batch, transfer);
    return { id: request.id, batch, strings };
  };
  return (request) => {
    const transfer: ArrayBuffer[] = [];
    try {
      return { reply: parse(request, transfer), transfer };
    } catch (error) {
      return {
        reply: {
          id: request.id,
          error: toWorkerError(error),
        },
        transfer: [],
      };
    }
  };
}

// A parse worker thread (started by parse-workers.ts): checks the data CRCs of the batches of serialized
// Examples it is sent (when they come unchecked), parses them with the spec it was started with, and
// answers each with the batch or the error.
import { parentPort, workerData } from 'node:worker_threads';
import { TfpipeError } from '@tfpipe/core';
import { crc32cRange, fastCrc32c, unmaskCrc } from '@tfpipe/sink-tfrecord/internal';
import { BatchParser } from '../parse/parse-example.js';
import type { SpanRecord } from '../parse/parse-example.js';
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import type { SpanRequest, SpanReply } from './parse-workers.js';
import { packStrings } from './packed-strings.js';

const parser = new BatchParser((workerData as { spec: ExampleParseSpec }).spec);
const EMPTY = new Uint8Array(0);
/** From this payload size up the native CRC (where it loads) beats the JS one over a view. */
const NATIVE_CRC_BYTES = 512;

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
function checkCrcs(request: SpanRequest, crcs: Uint32Array, files: readonly string[]): void {
  const { bytes, ends, count } = request;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let start = 0;
  for (let index = 0; index < count; index++) {
    const end = ends[index]!;
    const crc =
      end - start >= NATIVE_CRC_BYTES
        ? fastCrc32c(bytes.subarray(start, end))
        : crc32cRange(view, start, end);
    if (crc !== unmaskCrc(crcs[index]!))
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

function parse(request: SpanRequest & { id: number }, transfer: ArrayBuffer[]): SpanReply {
  const files = recordFiles(request);
  if (request.crcs !== undefined) checkCrcs(request, request.crcs, files);
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
}

parentPort!.on('message', (request: SpanRequest & { id: number }) => {
  let reply: SpanReply;
  const transfer: ArrayBuffer[] = [];
  try {
    reply = parse(request, transfer);
  } catch (error) {
    reply = {
      id: request.id,
      error: TfpipeError.is(error)
        ? {
            code: error.code,
            detail: error.detail,
            position: error.position,
            fatal: error.fatal,
            ...(error.stage === undefined ? {} : { stage: error.stage }),
            ...(error.reason === undefined ? {} : { reason: error.reason }),
          }
        : { message: error instanceof Error ? error.message : String(error) },
    };
  }
  parentPort!.postMessage(reply, reply.error === undefined ? transfer : []);
});

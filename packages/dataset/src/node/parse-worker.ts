// A parse worker thread (started by parse-workers.ts): parses the batches of serialized Examples it is
// sent with the spec it was started with, and answers each with the batch or the parse error.
import { parentPort, workerData } from 'node:worker_threads';
import { TfpipeError } from '@tfpipe/core';
import { BatchParser } from '../parse/parse-example.js';
import type { SpanRecord } from '../parse/parse-example.js';
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import type { SpanRequest, SpanReply } from './parse-workers.js';

const parser = new BatchParser((workerData as { spec: ExampleParseSpec }).spec);
const EMPTY = new Uint8Array(0);

parentPort!.on('message', (request: SpanRequest & { id: number }) => {
  const places: SpanRecord[] = [];
  for (let index = 0; index < request.count; index++)
    places.push({
      data: EMPTY,
      file: request.files[index]!,
      recordIndex: request.recordIndexes[index]!,
      byteOffset: request.byteOffsets[index]!,
    });
  let reply: SpanReply;
  try {
    reply = { id: request.id, batch: parser.parseSpans(request.bytes, request.ends, request.count, places) };
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
  parentPort!.postMessage(reply);
});

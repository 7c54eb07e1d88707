// The worker side of parse-workers.ts, shared by Node's worker thread (node/parse-worker.ts) and the
// browser's module Web Worker (parse-worker-web.ts): checks the data CRCs of a batch of serialized
// Examples (when it comes unchecked), parses it with the worker's spec and builds the reply.
import { BatchParser } from '../parse/parse-example.js';
import type { SpanRecord } from '../parse/parse-example.js';
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import type { Tensor } from '../tensor.js';
import { toWorkerError } from './parse-workers.js';
import type { SpanReply, SpanRequest } from './parse-workers.js';
import { packStrings } from './packed-strings.js';
import { dataCrcError } from '../parse/span-crcs.js';
import type { SpanCrcCheck } from '../parse/span-crcs.js';

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

/** Whether `array` is the only view of its whole buffer (a batch's own), so moving it moves nothing else. */
function ownsBuffer(array: ArrayBufferView): boolean {
  return (
    array.buffer instanceof ArrayBuffer &&
    array.byteOffset === 0 &&
    array.byteLength === array.buffer.byteLength
  );
}

/**
 * Adds the buffers of the batch's typed arrays (values, sparse indices, ragged row splits) that own
 * their whole buffer to `transfer`: the batch then moves to the other thread instead of being copied.
 */
function transferArrays(batch: Record<string, Tensor>, transfer: ArrayBuffer[]): void {
  const moved = new Set<ArrayBuffer>(transfer);
  const add = (array: unknown): void => {
    if (!ArrayBuffer.isView(array) || !ownsBuffer(array) || moved.has(array.buffer as ArrayBuffer)) return;
    moved.add(array.buffer as ArrayBuffer);
    transfer.push(array.buffer as ArrayBuffer);
  };
  for (const tensor of Object.values(batch)) {
    add(tensor.data);
    if (tensor.kind === 'sparse') add(tensor.indices);
    if (tensor.kind === 'ragged') for (const splits of tensor.rowSplits) add(splits);
  }
}

/**
 * Answers parse requests in a worker: `answer(request)` is the reply to post and the buffers it moves
 * (none for an error).
 */
export function spanAnswerer(
  spec: ExampleParseSpec,
  crcCheck: SpanCrcCheck,
): (request: SpanRequest & { id: number }) => { reply: SpanReply; transfer: ArrayBuffer[] } {
  const parser = new BatchParser(spec);
  const parse = (request: SpanRequest & { id: number }, transfer: ArrayBuffer[]): SpanReply => {
    const files = recordFiles(request);
    if (request.crcs !== undefined) {
      // The reader's own error at the first record whose data CRC does not hold.
      const bad = crcCheck(request.bytes, request.ends, request.count, request.crcs);
      if (bad >= 0)
        throw dataCrcError({
          file: files[bad]!,
          recordIndex: request.recordIndexes[bad]!,
          byteOffset: request.byteOffsets[bad]!,
        });
    }
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
    transferArrays(batch, transfer);
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

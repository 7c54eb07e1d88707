// The CSV worker thread (started by csv-thread-helper.ts): converts the chunks it is sent with the byte
// path, each on its own, and answers with the Examples packed in one buffer, or declines the chunk.
import { parentPort, workerData } from 'node:worker_threads';
import { encodeExample, positionOf } from '@tfpipe/core';
import type { Example } from '@tfpipe/core';
import { EncodedExample, FRAME_TRAILER_BYTES } from '@tfpipe/core/internal';
import { RecordErrorPolicy } from '@tfpipe/core/plugin';
import { CsvBytePath } from './csv-byte-path.js';
import type { DetachedChunk } from './csv-byte-path.js';
import { CsvRowEncoder } from './csv-row-encoder.js';
import { THREAD_CLAIMED, UNCLAIMED } from './csv-thread-helper.js';
import type { CsvChunkReply, CsvChunkRequest, CsvThreadSettings } from './csv-thread-helper.js';

/** Bytes a TFRecord frame puts before a record (the room `EncodedExample`s keep for it). */
const FRAME_HEADER_BYTES = 12;

const settings = workerData as CsvThreadSettings;
// Any record error throws: the calling thread converts that chunk again under the run's own policy.
const policy = new RecordErrorPolicy({ onError: 'fail' });
const path = new CsvBytePath(
  settings.options,
  settings.plan,
  new CsvRowEncoder(settings.schema, settings.plan),
  settings.chunkBytes,
  policy,
);
const EMPTY: DetachedChunk = { examples: [], complete: false, lines: 0, rows: 0, records: 0 };

parentPort!.on('message', (request: CsvChunkRequest & { id: number }) => {
  let chunk: DetachedChunk = EMPTY;
  // The calling thread may have started the chunk itself meanwhile: then it is declined.
  if (Atomics.compareExchange(settings.claims, request.slot, UNCLAIMED, THREAD_CLAIMED) === UNCLAIMED) {
    try {
      chunk = path.convertDetached(request.bytes, request.file, request.byteOffset);
    } catch {
      chunk = EMPTY;
    }
  }
  const reply = chunk.complete
    ? pack(request.id, request.file, chunk)
    : pack(request.id, request.file, EMPTY);
  const { bytes, offsets, lengths, lines, rows } = reply;
  parentPort!.postMessage(
    reply,
    [bytes, offsets, lengths, lines, rows].map((array) => array.buffer as ArrayBuffer),
  );
});
// Loaded: the calling thread starts sending chunks.
parentPort!.postMessage({ ready: true });

/**
 * Packs a chunk's Examples into one buffer, each with room for its frame before and after it. The row
 * encoder writes consecutive rows one after the other with that room, so runs of them are copied at once.
 */
function pack(id: number, file: string, chunk: DetachedChunk): CsvChunkReply {
  const examples: Example[] = chunk.examples;
  const count = examples.length;
  const offsets = new Int32Array(count);
  const lengths = new Int32Array(count);
  const lines = new Float64Array(count);
  const rows = new Float64Array(count);
  const runs: { source: Uint8Array; start: number; end: number }[] = [];
  let run: { source: Uint8Array; start: number; end: number } | undefined;
  let total = 0;
  for (let index = 0; index < count; index++) {
    const example = examples[index]!;
    let source: Uint8Array;
    let from: number;
    let length: number;
    if (example instanceof EncodedExample && example.frameRoom) {
      source = example.buffer;
      from = example.byteOffset - FRAME_HEADER_BYTES;
      length = example.byteLength;
    } else {
      // An Example the encoder built from Features: the bytes the sink would encode for it.
      const encoded = encodeExample(example);
      length = encoded.length;
      source = new Uint8Array(FRAME_HEADER_BYTES + length + FRAME_TRAILER_BYTES);
      source.set(encoded, FRAME_HEADER_BYTES);
      from = 0;
    }
    const to = from + FRAME_HEADER_BYTES + length + FRAME_TRAILER_BYTES;
    if (run !== undefined && run.source === source && run.end === from) run.end = to;
    else runs.push((run = { source, start: from, end: to }));
    offsets[index] = total + FRAME_HEADER_BYTES;
    lengths[index] = length;
    total += to - from;
    const position = positionOf(example);
    if (position?.file !== file || position.line === undefined || position.row === undefined) {
      throw new Error(`the CSV thread made a record without its position in ${file}`);
    }
    lines[index] = position.line;
    rows[index] = position.row;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const { source, start, end } of runs) {
    bytes.set(source.subarray(start, end), at);
    at += end - start;
  }
  return {
    id,
    complete: chunk.complete,
    bytes,
    offsets,
    lengths,
    lines,
    rows,
    lineCount: chunk.lines,
    rowCount: chunk.rows,
    records: chunk.records,
  };
}

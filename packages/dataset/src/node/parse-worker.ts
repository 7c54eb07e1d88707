// A parse worker thread (started by node/parse-workers.ts): answers each batch of serialized Examples
// it is sent (workers/answer-spans.ts) with the spec it was started with.
import { parentPort, workerData } from 'node:worker_threads';
import { crc32cRange, fastCrc32c } from '@tfpipe/sink-tfrecord/internal';
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import type { SpanRequest } from '../workers/parse-workers.js';
import { spanAnswerer } from '../workers/answer-spans.js';

/** From this payload size up the native CRC (where it loads) beats the JS one over a view. */
const NATIVE_CRC_BYTES = 512;

const answer = spanAnswerer((workerData as { spec: ExampleParseSpec }).spec, (bytes, view, start, end) =>
  end - start >= NATIVE_CRC_BYTES ? fastCrc32c(bytes.subarray(start, end)) : crc32cRange(view, start, end),
);

parentPort!.on('message', (request: SpanRequest & { id: number }) => {
  const { reply, transfer } = answer(request);
  parentPort!.postMessage(reply, transfer);
});

// A parse worker thread (started by node/parse-workers.ts): answers each batch of serialized Examples
// it is sent (workers/answer-spans.ts) with the spec it was started with.
import { parentPort, workerData } from 'node:worker_threads';
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import type { SpanRequest } from '../workers/parse-workers.js';
import { spanAnswerer } from '../workers/answer-spans.js';
import { nodeSpanCrcs } from './run-crcs.js';

const answer = spanAnswerer((workerData as { spec: ExampleParseSpec }).spec, nodeSpanCrcs());

parentPort!.on('message', (request: SpanRequest & { id: number }) => {
  const { reply, transfer } = answer(request);
  parentPort!.postMessage(reply, transfer);
});

// A parse Web Worker (a module worker started by web-workers.ts): started with its spec, it answers
// each batch of serialized Examples (answer-spans.ts).
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import type { SpanRequest } from './parse-workers.js';
import { spanAnswerer } from './answer-spans.js';
import { webSpanCrcs } from '../parse/span-crcs.js';
import { serveWebWorker } from './worker-scope.js';

serveWebWorker<{ spec: ExampleParseSpec }>(({ spec }) => {
  const answer = spanAnswerer(spec, webSpanCrcs);
  return (request) => answer(request as SpanRequest & { id: number });
});

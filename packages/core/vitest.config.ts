import { defineConfig } from 'vitest/config';
import { existingFiles, TIMEOUTS } from '../../test-support/vitest-config.js';

// Core runs twice: in Node and in the edge runtime (web-standard globals only, no node:* modules).
// The edge run takes the files whose code reaches a web-standard global or generates code: TextEncoder
// and TextDecoder (the codec, feature names, stats, glob names), web streams and AbortSignal (the
// stages, the pipeline, lending, the conformance suite), SharedArrayBuffer (copyBytes), the request
// thread, and `new Function` (the row encoders' generated code, for random specs). The other files test
// plain ECMAScript (number and text grammars, option checks, error codes, types), which Node proves
// alike; lint keeps every source web-standard (no-restricted-imports / no-restricted-globals).
// The test files share one module graph per project (isolate: false: no file mocks a module).
const EDGE = existingFiles(import.meta.url, [
  'src/codec/copy-bytes.test.ts',
  'src/codec/decode-example.test.ts',
  'src/codec/encode-example.test.ts',
  'src/codec/example-json.test.ts',
  'src/codec/known-crc32c.test.ts',
  'src/contract/lending.test.ts',
  'src/model/feature.test.ts',
  'src/paths/expand-glob.test.ts',
  'src/stages/batch.test.ts',
  'src/stages/build-examples.test.ts',
  'src/stages/build-sequence-examples.test.ts',
  'src/stages/parse-examples.test.ts',
  'src/stages/row-encoder/row-encoder-codegen.test.ts',
  'src/stages/row-encoder/row-encoder.test.ts',
  'src/stages/run/pipeline.test.ts',
  'src/stages/sampling/shuffle-buffer.test.ts',
  'src/stages/serialize-examples.test.ts',
  'src/stats/feature-stats.test.ts',
  'src/testing/conformance.test.ts',
  'src/threads/request-thread.test.ts',
]);

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'core', include: ['src/**/*.test.ts'], isolate: false, ...TIMEOUTS } },
      {
        test: { name: 'core-edge', environment: 'edge-runtime', include: EDGE, isolate: false, ...TIMEOUTS },
      },
    ],
  },
});

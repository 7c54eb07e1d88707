import { configDefaults, defineConfig } from 'vitest/config';
import { TIMEOUTS } from '../../test-support/vitest-config.js';

// Like core, the parser is web-standard: its tests also run in the edge runtime (web globals only, no
// node:* modules). Tests that read files are named *.node.test.ts and run in Node only. The test files
// of a project share one module graph (isolate: false), which saves re-importing the package for each
// file; the file that mocks a module (vi.mock) runs in its own, as a third project.
const MOCKING = ['src/tfrecord/parse-workers.node.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'dataset',
          include: ['src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...MOCKING],
          isolate: false,
          ...TIMEOUTS,
        },
      },
      { test: { name: 'dataset-mocks', include: MOCKING, ...TIMEOUTS } },
      {
        test: {
          name: 'dataset-edge',
          environment: 'edge-runtime',
          include: ['src/**/*.test.ts'],
          // Every other file reaches a web-standard global (TextDecoder in the parser and the spec's JSON,
          // web streams in the dataset, DecompressionStream, image decoding). The long hostile and property
          // runs exercise the same APIs as the rest, and the types tests check the compiler, not a runtime;
          // lint keeps the sources web-standard (no-restricted-imports / no-restricted-globals).
          exclude: [
            'src/**/*.node.test.ts',
            'src/**/*.hostile.test.ts',
            'src/**/*.property.test.ts',
            'src/**/*.types.test.ts',
          ],
          isolate: false,
          ...TIMEOUTS,
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';

// Core runs twice: in Node and in the edge runtime (web-standard globals only, no node:* modules),
// so anything that is not web-standard fails here first. The test files share one module graph per
// project (isolate: false: no file mocks a module), which saves re-importing core for each file.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'core',
          include: ['src/**/*.test.ts'],
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'core-edge',
          environment: 'edge-runtime',
          include: ['src/**/*.test.ts'],
          // The long hostile and property runs exercise the same APIs as the rest; lint keeps the sources
          // web-standard (no-restricted-imports / no-restricted-globals in eslint.config.js).
          exclude: ['src/**/*.node.test.ts', 'src/**/*.hostile.test.ts', 'src/**/*.property.test.ts'],
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

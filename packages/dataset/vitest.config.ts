import { defineConfig } from 'vitest/config';

// Like core, the parser is web-standard: its tests also run in the edge runtime (web globals only, no
// node:* modules). Tests that read files are named *.node.test.ts and run in Node only.
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'dataset', include: ['src/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 },
      },
      {
        test: {
          name: 'dataset-edge',
          environment: 'edge-runtime',
          include: ['src/**/*.test.ts'],
          // The long hostile and property runs exercise the same APIs as the rest; lint keeps the sources
          // web-standard (no-restricted-imports / no-restricted-globals in eslint.config.js).
          exclude: ['src/**/*.node.test.ts', 'src/**/*.hostile.test.ts', 'src/**/*.property.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';

// Like core, the parser is web-standard: its tests also run in the edge runtime (web globals only, no
// node:* modules). Tests that read files are named *.node.test.ts and run in Node only.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'dataset', include: ['src/**/*.test.ts'], testTimeout: 30_000 } },
      {
        test: {
          name: 'dataset-edge',
          environment: 'edge-runtime',
          include: ['src/**/*.test.ts'],
          exclude: ['src/**/*.node.test.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});

import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'source-template',
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

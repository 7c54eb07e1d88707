import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'source-parquet',
    testTimeout: 30_000,
  },
});

import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'sink-tfrecord',
    testTimeout: 30_000,
  },
});

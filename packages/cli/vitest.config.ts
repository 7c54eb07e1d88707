import { defineProject } from 'vitest/config';

// The test files share one module graph (isolate: false: no file mocks a module), which saves
// re-importing the package for each file.
export default defineProject({
  test: {
    name: 'cli',
    isolate: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

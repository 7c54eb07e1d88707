import { configDefaults, defineConfig } from 'vitest/config';

// The test files share one module graph (isolate: false), which saves re-importing the package for
// each file; the files that mock a module (vi.mock) run each in its own, as a second project.
const MOCKING = ['src/csv-thread.test.ts'];
const TIMEOUTS = { testTimeout: 120_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'source-csv',
          exclude: [...configDefaults.exclude, ...MOCKING],
          isolate: false,
          ...TIMEOUTS,
        },
      },
      { test: { name: 'source-csv-mocks', include: MOCKING, ...TIMEOUTS } },
    ],
  },
});

import { configDefaults, defineConfig } from 'vitest/config';

// The test files share one module graph (isolate: false), which saves re-importing the package for
// each file; the files that mock a module (vi.mock) run each in its own, as a second project.
const MOCKING = ['src/run/run-pipeline-commit.test.ts'];
const TIMEOUTS = { testTimeout: 120_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'pipeline',
          exclude: [...configDefaults.exclude, ...MOCKING],
          isolate: false,
          ...TIMEOUTS,
        },
      },
      { test: { name: 'pipeline-mocks', include: MOCKING, ...TIMEOUTS } },
    ],
  },
});

import { configDefaults, defineConfig } from 'vitest/config';

// The test files share one module graph (isolate: false), which saves re-importing the package for
// each file; the files that mock a module (vi.mock), count the threads the package starts or bound this
// process's memory run each in a fresh process, as a second project.
const ISOLATED = [
  'src/image-read-ahead.test.ts',
  'src/processing/read-image-file.fallback.test.ts',
  'src/processing/pixel-budget.test.ts',
  'src/image.faults.test.ts',
  'src/image-lending.test.ts',
  'src/processing/read-image-file.test.ts',
  'src/image.hostile.test.ts',
];
const TIMEOUTS = { testTimeout: 120_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'source-images',
          exclude: [...configDefaults.exclude, ...ISOLATED],
          isolate: false,
          ...TIMEOUTS,
        },
      },
      { test: { name: 'source-images-isolated', include: ISOLATED, ...TIMEOUTS } },
    ],
  },
});

import { sharedGraphConfig } from '../../test-support/vitest-config.js';

// Test files share one module graph (see test-support/vitest-config.ts); the listed files mock a module,
// count the threads the package starts or bound this process's memory.
export default sharedGraphConfig('source-images', [
  'src/image-read-ahead.test.ts',
  'src/processing/read-image-file.fallback.test.ts',
  'src/processing/pixel-budget.test.ts',
  'src/image.faults.test.ts',
  'src/image-lending.test.ts',
  'src/processing/read-image-file.test.ts',
  'src/image.hostile.test.ts',
]);

import { sharedGraphConfig } from '../../test-support/vitest-config.js';

// Test files share one module graph (see test-support/vitest-config.ts); the listed file mocks a module.
export default sharedGraphConfig('source-csv', ['src/csv-thread.test.ts']);

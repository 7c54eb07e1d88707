import { sharedGraphConfig } from '../../test-support/vitest-config.js';

// Test files share one module graph (see test-support/vitest-config.ts), but for the browser test of the
// 2.25 GiB file (CI), which measures the memory of its process's tree: it runs in a fresh process.
export default sharedGraphConfig('viewer', ['src/viewer.browser.test.ts']);

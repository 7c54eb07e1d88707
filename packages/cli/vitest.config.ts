import { sharedGraphConfig } from '../../test-support/vitest-config.js';

// Test files share one module graph (see test-support/vitest-config.ts); none mocks a module.
export default sharedGraphConfig('cli');

import { existingFiles, sharedGraphConfig } from '../../test-support/vitest-config.js';

// Test files share one module graph (see test-support/vitest-config.ts); none mocks a module. The README
// examples' type-check compiles against the workspace's declarations: it is the project `demo-declarations`
// (`pnpm test:declarations`), which turbo starts once `pnpm build:types` is done.
export default sharedGraphConfig('demo', [], existingFiles(import.meta.url, ['src/package-readmes.test.ts']));

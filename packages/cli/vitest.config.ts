import { existingFiles, sharedGraphConfig } from '../../test-support/vitest-config.js';

// Test files share one module graph (see test-support/vitest-config.ts); none mocks a module. The schema test
// type-checks the TypeScript the CLI prints against the workspace's declarations: it is the project
// `cli-declarations` (`pnpm test:declarations`), which turbo starts once `pnpm build:types` is done.
export default sharedGraphConfig('cli', [], existingFiles(import.meta.url, ['src/cli-schema-spec.test.ts']));

import { defineProject } from 'vitest/config';

// Each test file in a fresh process (vitest's default), unlike the packages: the 2.25 GiB file test (CI)
// measures the memory of this process's tree, and sharing a process with the other browser files saves little.
export default defineProject({ test: { name: 'viewer', testTimeout: 120_000, hookTimeout: 120_000 } });

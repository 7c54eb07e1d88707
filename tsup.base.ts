import type { Options } from 'tsup';

/**
 * The one build config every package uses: ESM JavaScript, Node 20 target. A package passes only its entry points.
 * The declarations come from the workspace's `tsc --build` (`pnpm build:types`), which writes them into the same
 * `dist`, so the clean leaves `.d.ts` files alone: the two builds run side by side.
 */
export function packageBuild(entry: Record<string, string>, overrides: Options = {}): Options {
  return {
    entry,
    format: ['esm'],
    dts: false,
    sourcemap: true,
    clean: ['!**/*.d.ts'],
    target: 'node20',
    splitting: true,
    treeshake: true,
    // Keep `node:` specifiers: they mark what is Node-only, and Node 20 resolves them.
    removeNodeProtocol: false,
    ...overrides,
  };
}

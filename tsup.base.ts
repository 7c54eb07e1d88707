import type { Options } from 'tsup';

/**
 * The one build config every package uses: ESM, declarations, Node 20 target.
 * A package passes only its entry points.
 */
export function packageBuild(entry: Record<string, string>, overrides: Options = {}): Options {
  return {
    entry,
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    splitting: true,
    treeshake: true,
    // Keep `node:` specifiers: they mark what is Node-only, and Node 20 resolves them.
    removeNodeProtocol: false,
    ...overrides,
  };
}

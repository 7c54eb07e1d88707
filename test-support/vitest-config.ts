// The vitest config of a package whose test files share one module graph (isolate: false), which
// saves re-importing the package for each file. A file that mocks a module (vi.mock) would leak its
// mock into the files after it, and a file that counts the threads the package starts or bounds its
// process's memory sees the other files' work: such files run each in a fresh process, as a second
// project (apps/demo's test-isolation test checks that every mocking file is listed).
import { existsSync } from 'node:fs';
import { configDefaults, type ViteUserConfig } from 'vitest/config';

/** Every package's limits: a hang guard, not a speed check (speed is measured in `pnpm bench`). */
export const TIMEOUTS = { testTimeout: 120_000, hookTimeout: 120_000 } as const;

/**
 * `files` (paths relative to the config at `configUrl`) as given, after checking that each exists: a
 * list of test files that names a renamed or deleted file fails instead of silently running less.
 */
export function existingFiles(configUrl: string, files: readonly string[]): string[] {
  const missing = files.filter((file) => !existsSync(new URL(file, configUrl)));
  if (missing.length > 0) throw new Error(`${configUrl}: no such test file: ${missing.join(', ')}`);
  return [...files];
}

/**
 * The config of package `name`: its test files in one module graph, those in `fresh` (paths relative to
 * the package, as vitest names them) each in a fresh process, and those in `declarations` (files that
 * compile code against the workspace's declarations, which `pnpm build:types` writes) in one module graph
 * of their own, the project `<name>-declarations`. A package with `declarations` runs them with its
 * `test:declarations` script and the rest with `test` (`vitest run --project <name>`): in `pnpm test`,
 * turbo starts the rest before the declarations are built.
 */
export function sharedGraphConfig(
  name: string,
  fresh: readonly string[] = [],
  declarations: readonly string[] = [],
): ViteUserConfig {
  const shared = { name, isolate: false, ...TIMEOUTS };
  if (fresh.length === 0 && declarations.length === 0) return { test: shared };
  return {
    test: {
      projects: [
        { test: { ...shared, exclude: [...configDefaults.exclude, ...fresh, ...declarations] } },
        ...(fresh.length === 0
          ? []
          : [{ test: { name: `${name}-fresh`, include: [...fresh], ...TIMEOUTS } }]),
        ...(declarations.length === 0
          ? []
          : [
              {
                test: {
                  name: `${name}-declarations`,
                  include: [...declarations],
                  isolate: false,
                  ...TIMEOUTS,
                },
              },
            ]),
      ],
    },
  };
}

// The packages' vitest configs run test files in one shared module graph (isolate: false). A file that
// mocks a module (vi.mock) there would leak its mock into the files after it, or see the real module
// another file loaded first: such a file must be named in its config's list of files run in a fresh process.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

/** Every `*.test.ts` below `directory`, relative to it, outside dependencies and build output. */
function testFiles(directory: string, prefix = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(directory, prefix), { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const relative = path.posix.join(prefix, entry.name);
    if (entry.isDirectory()) found.push(...testFiles(directory, relative));
    else if (entry.name.endsWith('.test.ts')) found.push(relative);
  }
  return found;
}

/** The package and app folders whose vitest config shares one module graph between test files. */
const shared = ['packages', 'apps']
  .flatMap((group) => readdirSync(path.join(root, group)).map((name) => path.join(root, group, name)))
  .flatMap((folder) => {
    try {
      return [{ folder, config: readFileSync(path.join(folder, 'vitest.config.ts'), 'utf8') }];
    } catch {
      return [];
    }
  })
  .filter(({ config }) => /isolate: false|sharedGraphConfig\(/.test(config));

describe('test files that mock a module', () => {
  test('the configs that share a module graph are found (this check would hold trivially otherwise)', () => {
    const found = shared.map(({ folder }) => path.relative(root, folder));
    expect(found).toContain('packages/core');
    expect(found).toContain('packages/source-csv');
  });

  test.each(shared.map(({ folder, config }) => [path.relative(root, folder), folder, config] as const))(
    '%s: each runs in a fresh process, named in its vitest config',
    (_name, folder, config) => {
      const mocking = testFiles(folder).filter((file) =>
        /\bvi\.(mock|doMock)\(/.test(readFileSync(path.join(folder, file), 'utf8')),
      );
      const unlisted = mocking.filter((file) => !config.includes(`'${file}'`));
      expect(unlisted).toEqual([]);
    },
  );
});

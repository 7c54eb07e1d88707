// `pnpm build:types` is one `tsc --build` over the workspace: each package's tsconfig.build.json writes its
// declarations, which the packages that depend on it compile against. tsc builds a project after the projects
// it references, so every workspace package a folder depends on (package.json: dependencies, peers, dev
// dependencies) must be referenced, or a fresh clone compiles it before that package's declarations exist.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

interface Manifest {
  readonly name: string;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

const folders = [
  ...['packages', 'apps'].flatMap((group) =>
    readdirSync(path.join(root, group)).map((name) => path.posix.join(group, name)),
  ),
  'bench',
].filter((folder) => existsSync(path.join(root, folder, 'package.json')));

const manifests = new Map(
  folders.map((folder) => [
    folder,
    JSON.parse(readFileSync(path.join(root, folder, 'package.json'), 'utf8')) as Manifest,
  ]),
);

/** The folder of each package that writes declarations (a `packages/*` folder with a tsconfig.build.json). */
const declaring = new Map(
  folders
    .filter((folder) => existsSync(path.join(root, folder, 'tsconfig.build.json')))
    .map((folder) => [manifests.get(folder)!.name, folder]),
);

/** The tsconfig.build.json files `config` (a path from the root) references, as paths from the root. */
function references(config: string): string[] {
  // The tsconfig files here are plain JSON (prettier-formatted, no comments).
  const parsed = JSON.parse(readFileSync(path.join(root, config), 'utf8')) as {
    references?: readonly { path: string }[];
  };
  return (parsed.references ?? [])
    .map((reference) => path.posix.join(path.posix.dirname(config), reference.path))
    .sort();
}

describe('project references', () => {
  test('every package under packages/ writes its declarations (this check would hold trivially otherwise)', () => {
    const packages = folders.filter((folder) => folder.startsWith('packages/'));
    expect(packages.length).toBeGreaterThan(5);
    expect([...declaring.values()].sort()).toEqual(packages.sort());
  });

  test.each(folders)('%s references the declarations of each workspace package it depends on', (folder) => {
    const manifest = manifests.get(folder)!;
    const needed = Object.keys({
      ...manifest.dependencies,
      ...manifest.peerDependencies,
      ...manifest.devDependencies,
    })
      .filter((name) => declaring.has(name))
      .map((name) => path.posix.join(declaring.get(name)!, 'tsconfig.build.json'))
      .sort();
    if (declaring.has(manifest.name)) {
      expect(references(`${folder}/tsconfig.build.json`)).toEqual(needed);
      const own = `${folder}/tsconfig.build.json`;
      expect(references(`${folder}/tsconfig.test.json`)).toEqual([own, ...needed].sort());
    } else {
      expect(references(`${folder}/tsconfig.json`)).toEqual(needed);
    }
  });
});

// The export-list snapshots: each package's `entries.test.ts` imports its entries by package name
// (what users get: the `exports` map and the built files) and snapshots this list, so that growing
// or shrinking a public surface shows up in review as a changed snapshot.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';

/** A package's `exports` map entry, e.g. `{ types: './dist/index.d.ts', import: './dist/index.js' }`. */
type ExportTarget = { readonly types?: string } | string;

/**
 * The names an entry exports, as `name: kind` lines sorted by name: the runtime `typeof` of each
 * value, `type` for a name its built declaration file exports without a value.
 * @param packageDirectory - the package's folder (its `package.json` maps `entry` to the declarations)
 * @param entry - the `exports` key, e.g. `'.'` or `'./internal'`
 * @param loaded - the module, imported by the package's name
 */
export async function exportSurface(
  packageDirectory: string,
  entry: string,
  loaded: Readonly<Record<string, unknown>>,
): Promise<string[]> {
  const manifest = JSON.parse(await readFile(path.join(packageDirectory, 'package.json'), 'utf8')) as {
    exports: Readonly<Record<string, ExportTarget>>;
  };
  const target = manifest.exports[entry];
  if (target === undefined || typeof target === 'string' || target.types === undefined)
    throw new Error(`${entry} has no types in ${packageDirectory}/package.json`);
  const declarations = await readFile(path.join(packageDirectory, target.types), 'utf8');
  const names = new Set(Object.keys(loaded));
  // tsup writes `export { a, type B, c as d };` and re-exports of shared chunks `export { x as Y } from '…';`.
  for (const list of declarations.matchAll(/^export \{([^}]*)\}(?: from '[^']*')?;?$/gm)) {
    for (const item of list[1]!.split(',')) {
      const name = item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop();
      if (name) names.add(name);
    }
  }
  // tsc (an entry whose declarations tsup cannot bundle) writes `export interface A` / `export type A`.
  for (const declared of declarations.matchAll(/^export (?:declare )?(?:interface|type) (\w+)/gm))
    names.add(declared[1]!);
  return [...names].sort().map((name) => `${name}: ${name in loaded ? typeof loaded[name] : 'type'}`);
}

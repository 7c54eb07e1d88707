// The export-list snapshots: each package's `entries.test.ts` imports its entries by package name
// (what users get: the `exports` map and the built files) and snapshots this list, so that growing
// or shrinking a public surface shows up in review as a changed snapshot.
import { access, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import ts from 'typescript';

/** A package's `exports` map entry, e.g. `{ types: './dist/index.d.ts', import: './dist/index.js' }`. */
type ExportTarget = { readonly types?: string } | string;

/**
 * The names an entry exports, as `name: kind` lines sorted by name: the runtime `typeof` of each
 * value, `type` for a name the entry's declarations export without a value.
 *
 * The declarations are written by `tsc --build` (`pnpm build:types`, each package's
 * `tsconfig.build.json`: `src` to `dist`, one `.d.ts` per module), which runs beside the tests. So the
 * type names are read, with the compiler, from the module that the `types` path of the `exports` map
 * is declared from (`./dist/a/b.d.ts` from `src/a/b.ts`): the names its declaration file exports.
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
  const declared = /^\.\/dist\/(.+)\.d\.ts$/.exec(target.types);
  if (declared === null) throw new Error(`${entry}: types ${target.types} is not a ./dist/….d.ts path`);
  const source = path.join(packageDirectory, 'src', `${declared[1]}.ts`);
  await access(source);
  const names = new Set(Object.keys(loaded));
  for (const name of declaredExports(source)) names.add(name);
  return [...names].sort().map((name) => `${name}: ${name in loaded ? typeof loaded[name] : 'type'}`);
}

/** Parsed modules, shared by the calls of one test process (an entry's modules are mostly another's). */
const parsed = new Map<string, ts.SourceFile | undefined>();

/** The names module `file` exports (values and types), as the compiler binds them; no type-checking. */
function declaredExports(file: string): string[] {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noLib: true,
    types: [],
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, version) => {
    if (!parsed.has(fileName)) parsed.set(fileName, parse(fileName, version));
    return parsed.get(fileName);
  };
  // Only the package's own modules: a name re-exported from another package is bound without reading
  // that package (whose declarations may not be written yet), and `export *` is used within a package only.
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions, sourceFile) =>
    literals.map((literal) =>
      literal.text.startsWith('.')
        ? ts.resolveModuleName(
            literal.text,
            containingFile,
            compilerOptions,
            host,
            undefined,
            redirected,
            ts.getModeForUsageLocation(sourceFile, literal, compilerOptions),
          )
        : { resolvedModule: undefined },
    );
  const program = ts.createProgram({ rootNames: [file], options, host });
  const checker = program.getTypeChecker();
  const sourceFile = program.getSourceFile(file);
  const moduleSymbol = sourceFile === undefined ? undefined : checker.getSymbolAtLocation(sourceFile);
  if (moduleSymbol === undefined) throw new Error(`${file} is not a module`);
  return checker.getExportsOfModule(moduleSymbol).map((symbol) => symbol.getName());
}

// `pnpm build:types`: `tsc --build --force` over the workspace (every package's tsconfig.test.json, which references
// its tsconfig.build.json and those of the packages it depends on; the apps; bench), through TypeScript's solution
// builder. With `--lint` or TFPIPE_LINT_WITH_TYPES=1 (`pnpm test` sets it), it then runs eslint over
// `packages apps bench` (what `pnpm lint:workspace` runs, same config and rules) with the type information of the
// programs it has just built instead of eslint's own project service: the type-aware rules ask for the types of
// files the build has checked already, so `pnpm test` type-checks the workspace once instead of twice. Every linted
// TypeScript file is in one of these programs (a file that is not fails eslint with "not found in any of the
// provided program instance(s)"), a test file seeing its package's sources through their declarations.
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { repositoryRoot } from './pack-packages.mjs';

const lint = process.argv.includes('--lint') || process.env.TFPIPE_LINT_WITH_TYPES === '1';
process.chdir(repositoryRoot);

const inFolders = (folder, file) =>
  readdirSync(folder)
    .map((name) => path.join(folder, name, file))
    .filter((config) => existsSync(config));
const roots = [
  ...inFolders('packages', 'tsconfig.test.json'),
  ...inFolders('apps', 'tsconfig.json'),
  'bench/tsconfig.json',
];

const formatHost = {
  getCanonicalFileName: (fileName) => fileName,
  getCurrentDirectory: () => repositoryRoot,
  getNewLine: () => ts.sys.newLine,
};
// Like tsc: colours and source context on a terminal, one line per diagnostic otherwise.
const pretty = ts.sys.writeOutputIsTTY?.() === true;
let errors = 0;
const reportDiagnostic = (diagnostic) => {
  if (diagnostic.category === ts.DiagnosticCategory.Error) errors++;
  const format = pretty ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  process.stdout.write(format([diagnostic], formatHost));
};
const host = ts.createSolutionBuilderHost(
  ts.sys,
  ts.createSemanticDiagnosticsBuilderProgram,
  reportDiagnostic,
  () => {},
);
const builder = ts.createSolutionBuilder(host, roots, { force: true });

/** Every program the build made, kept for eslint's type information. */
const programs = [];
for (
  let project = builder.getNextInvalidatedProject();
  project;
  project = builder.getNextInvalidatedProject()
) {
  if (project.kind === ts.InvalidatedProjectKind.Build) {
    const program = project.getProgram();
    if (program !== undefined && lint) programs.push(program);
  }
  project.done();
}
if (errors > 0) {
  console.error(`build:types: ${errors} error${errors === 1 ? '' : 's'}`);
  process.exitCode = 1;
}

if (lint) {
  const { ESLint } = await import('eslint');
  const eslint = new ESLint({
    cwd: repositoryRoot,
    overrideConfig: {
      files: ['**/*.ts', '**/*.mts', '**/*.cts', '**/*.tsx'],
      languageOptions: { parserOptions: { projectService: false, programs } },
    },
  });
  const results = await eslint.lintFiles(['packages', 'apps', 'bench']);
  const formatter = await eslint.loadFormatter('stylish');
  const output = await formatter.format(results);
  if (output !== '') console.log(output);
  console.log(`build:types: linted ${results.length} files with the programs of the build`);
  if (results.some((result) => result.errorCount > 0)) process.exitCode = 1;
}

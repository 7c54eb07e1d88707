// Runs README examples as scripts: the docs tests' shared part.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';

const appDirectory = path.resolve(import.meta.dirname, '../..');

/** The ```ts blocks of a Markdown text, in order. */
export function typescriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/** The text outside fenced code blocks and inline code, where a link is a link and a figure a figure. */
export function proseOf(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Where a docs test writes its scripts and runs them; {@link remove} deletes both. */
export interface ExampleScripts {
  /** Under this app's node_modules, so that a script's `@tfpipe/*` imports resolve to the workspace. */
  readonly scripts: string;
  /** A temporary directory for the scripts' working directories. */
  readonly work: string;
  /**
   * Type-strips `source`, writes it as `<name>.mjs` and runs it with node in a fresh working directory, after
   * `prepare(cwd)` (input files); resolves with what it printed and where it ran.
   */
  run(
    name: string,
    source: string,
    prepare?: (cwd: string) => Promise<void>,
  ): Promise<{ stdout: string; cwd: string }>;
  remove(): Promise<void>;
}

/** Makes the directories of a docs test (`prefix` names them). */
export async function exampleScripts(prefix: string): Promise<ExampleScripts> {
  await mkdir(path.join(appDirectory, 'node_modules/.cache'), { recursive: true });
  const scripts = await mkdtemp(path.join(appDirectory, `node_modules/.cache/${prefix}-`));
  const work = await mkdtemp(path.join(tmpdir(), `tfpipe-${prefix}-`));
  return {
    scripts,
    work,
    async run(name, source, prepare) {
      const { outputText } = ts.transpileModule(source, {
        compilerOptions: {
          module: ts.ModuleKind.ESNext,
          target: ts.ScriptTarget.ES2022,
          verbatimModuleSyntax: true,
        },
      });
      const script = path.join(scripts, `${name}.mjs`);
      await writeFile(script, outputText);
      const cwd = await mkdtemp(path.join(work, `${name}-`));
      await prepare?.(cwd);
      const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd });
      return { stdout, cwd };
    },
    async remove() {
      await rm(scripts, { recursive: true, force: true });
      await rm(work, { recursive: true, force: true });
    },
  };
}

// The plugins are optional peers: an install with only some of them runs pipelines that name those,
// and a pipeline naming a missing one fails with the package to install. Checked on the built
// package, copied into a project of its own, as npm would install it.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peopleCsv } from '../../../../test-support/people-csv.js';

const PACKAGE = fileURLToPath(new URL('../../', import.meta.url));
let project: string;

/** Links `name` from this package's own node_modules (its real folder, so its dependencies resolve). */
async function linkInstalled(name: string): Promise<void> {
  const target = await realpath(join(PACKAGE, 'node_modules', name));
  await mkdir(join(project, 'node_modules', name, '..'), { recursive: true });
  await symlink(target, join(project, 'node_modules', name), 'dir');
}

function runScript(source: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const script = join(project, 'script.mjs');
    void writeFile(script, source).then(() =>
      execFile(process.execPath, [script], { cwd: project }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr }),
      ),
    );
  });
}

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'tfpipe-peers-'));
  const installed = join(project, 'node_modules', '@tfpipe', 'pipeline');
  await mkdir(installed, { recursive: true });
  await cp(join(PACKAGE, 'dist'), join(installed, 'dist'), { recursive: true });
  await cp(join(PACKAGE, 'package.json'), join(installed, 'package.json'));
  // Its dependencies (as its package.json names them) and two of its four plugins: no
  // @tfpipe/source-parquet, no @tfpipe/source-images.
  const manifest = JSON.parse(await readFile(join(PACKAGE, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const dependencies = Object.keys(manifest.dependencies ?? {});
  for (const name of [...dependencies, '@tfpipe/core', '@tfpipe/source-csv', '@tfpipe/sink-tfrecord'])
    await linkInstalled(name);
  await writeFile(join(project, 'people.csv'), peopleCsv(12));
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe('plugins as optional peers', () => {
  it('runs a CSV pipeline with the Parquet and image plugins not installed', async () => {
    const result = await runScript(`
      import { runPipeline } from '@tfpipe/pipeline';
      const result = await runPipeline({
        source: { plugin: 'csv', options: { path: 'people.csv' } },
        sink: { plugin: 'tfrecord', options: { path: 'people.tfrecord' } },
      });
      console.log(result.summary.recordsWritten);
    `);
    expect(result).toMatchObject({ code: 0, stdout: '12\n' });
  });

  it('names the package to install when a pipeline names a plugin that is not installed', async () => {
    const result = await runScript(`
      import { runPipeline } from '@tfpipe/pipeline';
      try {
        await runPipeline({
          source: { plugin: 'parquet', options: { path: 'people.parquet' } },
          sink: { plugin: 'tfrecord', options: { path: 'people.tfrecord' } },
        });
      } catch (error) {
        console.log(JSON.stringify({ code: error.code, message: error.message }));
      }
    `);
    expect(result.code).toBe(0);
    const reported = JSON.parse(result.stdout) as { code: string; message: string };
    expect(reported.code).toBe('UNKNOWN_PLUGIN');
    expect(reported.message).toContain('source.plugin: unknown plugin "parquet"');
    expect(reported.message).toContain(
      '@tfpipe/source-parquet is not installed: npm install @tfpipe/source-parquet',
    );
  });
});

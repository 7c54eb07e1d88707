// `tfpipe convert` on image folders that used to end badly: a folder of TIFFs detected as images
// and converted to 0 records with exit 0, an output folder inside the image folder read back as a
// class, a symlink to a FIFO that hung the run even with --on-error skip. Bounded (CI, 2 cores).
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tfpipe } from './__fixtures__/run-cli.js';

/** A real 2x2 RGB PNG (written by sharp). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWMwTptpnDaTAUIBAB/uBMm6iK1UAAAAAElFTkSuQmCC',
  'base64',
);

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'tfpipe-convert-images-'));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

async function put(relative: string, data: Uint8Array | string): Promise<string> {
  const file = join(directory, relative);
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, data);
  return file;
}

describe('tfpipe convert on image folders', () => {
  it(
    'an output folder inside the image folder is not read as a class on a rerun',
    { timeout: 20_000 },
    async () => {
      await put('images/cat/a.png', PNG);
      await put('images/dog/b.png', PNG);
      const args = ['convert', 'images', 'images/out', '--overwrite', '--json'];
      for (let run = 0; run < 2; run++) {
        const result = await tfpipe(args, { cwd: directory });
        expect(result.code).toBe(0);
        expect(JSON.parse(result.stdout)).toMatchObject({ recordsWritten: 2, skipped: 0 });
        expect(await readFile(join(directory, 'images/out/labels.txt'), 'utf8')).toBe('0:cat\n1:dog\n');
      }
    },
  );

  it(
    'a folder of .tif files fails in one line naming the folder and what it holds',
    { timeout: 20_000 },
    async () => {
      await put('scans/cat/1.tif', 'II*\0');
      await put('scans/dog/2.tif', 'II*\0');
      const result = await tfpipe(['convert', 'scans', 'out.tfrecord'], { cwd: directory });
      expect(result.code).not.toBe(0);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(join(directory, 'scans'));
      expect(lines[0]).toMatch(/\.tif \(2\).*\[IMAGE_UNSUPPORTED\]$/);
    },
  );

  it(
    '--max-file-bytes refuses larger image files (skipped with --on-error skip)',
    { timeout: 20_000 },
    async () => {
      await put('images/cat/a.png', PNG);
      await put('images/cat/b.png', Buffer.concat([PNG, Buffer.alloc(200)]));
      const args = [
        'convert',
        'images',
        'out.tfrecord',
        '--max-file-bytes',
        '100',
        '--on-error',
        'skip',
        '--json',
      ];
      const result = await tfpipe(args, { cwd: directory });
      expect(result.code).toBe(0);
      const summary = JSON.parse(result.stdout) as {
        recordsWritten: number;
        skippedErrors: { code: string }[];
      };
      expect(summary.recordsWritten).toBe(1);
      expect(summary.skippedErrors.map((error) => error.code)).toEqual(['IMAGE_TOO_LARGE']);
    },
  );

  it.skipIf(process.platform !== 'linux')(
    'a symlink to a FIFO inside a class folder is skipped with --on-error skip, not waited on',
    { timeout: 20_000 },
    async () => {
      await put('images/cat/a.png', PNG);
      await mkdir(join(directory, 'images/.pipes'));
      execFileSync('mkfifo', [join(directory, 'images/.pipes/pipe')]);
      await symlink('../.pipes/pipe', join(directory, 'images/cat/b.jpg'));
      const args = ['convert', 'images', 'out.tfrecord', '--on-error', 'skip', '--json'];
      const result = await tfpipe(args, { cwd: directory });
      expect(result.code).toBe(0);
      const summary = JSON.parse(result.stdout) as {
        recordsWritten: number;
        skippedErrors: { code: string }[];
      };
      expect(summary.recordsWritten).toBe(1);
      expect(summary.skippedErrors.map((error) => error.code)).toEqual(['INPUT_NOT_FILE']);
    },
  );
});

// Real image files for tests that plan or convert image inputs: encoded by sharp (the one the image
// source depends on), each with its own colours so that no two records are alike.
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Sharp = (
  data: Buffer,
  options: object,
) => {
  png(): { toBuffer(): Promise<Buffer> };
  jpeg(options: object): { toBuffer(): Promise<Buffer> };
};

const imagesPackage = join(dirname(fileURLToPath(import.meta.url)), '../packages/source-images/package.json');
const sharp = createRequire(imagesPackage)('sharp') as Sharp;

/**
 * Writes `names` (paths relative to `directory`, `.png` or `.jpg`) as real 24×16 images, a gradient
 * whose colours follow each name's place in the list, and returns their absolute paths.
 */
export async function writeTestImages(directory: string, names: readonly string[]): Promise<string[]> {
  return Promise.all(
    names.map(async (name, index) => {
      const width = 24;
      const height = 16;
      const pixels = Buffer.alloc(width * height * 3);
      for (let pixel = 0; pixel < width * height; pixel++) {
        pixels[pixel * 3] = (index * 37 + pixel) % 256;
        pixels[pixel * 3 + 1] = (index * 91 + 3 * pixel) % 256;
        pixels[pixel * 3 + 2] = (index * 13) % 256;
      }
      const input = sharp(pixels, { raw: { width, height, channels: 3 } });
      const bytes = name.endsWith('.png')
        ? await input.png().toBuffer()
        : await input.jpeg({ quality: 90 }).toBuffer();
      const file = join(directory, name);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, bytes);
      return file;
    }),
  );
}

/** Baseline process for case e's CLI side: sharp alone, every image of the class folders to 224×224 JPEG q90. */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

const [root, inFlight] = process.argv.slice(2);
const paths: string[] = [];
for (const name of await readdir(root!)) {
  for (const file of await readdir(join(root!, name))) paths.push(join(root!, name, file));
}
let next = 0;
const lanes = Array.from({ length: Number(inFlight) }, async () => {
  while (next < paths.length) {
    const path = paths[next++]!;
    await sharp(await readFile(path))
      .rotate()
      .resize(224, 224, { fit: 'cover' })
      .jpeg({ quality: 90 })
      .toBuffer();
  }
});
await Promise.all(lanes);

import { createRequire } from 'node:module';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import sharp from 'sharp';

/** Sizes of the generated sample data; the demo's checks compare the outputs against them. */
export const SAMPLE = {
  /** Data rows of `flowers.csv`. */
  csvRows: 3000,
  /** Species in `flowers.csv`, i.e. the label vocabulary (sorted). */
  species: ['setosa', 'versicolor', 'virginica'],
  /** Class folders of `images/`, each holding `imagesPerClass` PNGs. */
  classes: ['circle', 'square', 'triangle'],
  imagesPerClass: 24,
  /** Side of the generated PNGs, in pixels (the pipeline resizes them to 64). */
  imageSize: 96,
  /** Rows of `weather.parquet`, in row groups of `parquetRowGroup`. */
  parquetRows: 2000,
  parquetRowGroup: 500,
  cities: ['Lisbon', 'Oslo', 'Nairobi', 'Lima', 'Osaka'],
} as const;

/** Bump when the generator changes, so old sample data is regenerated. */
const VERSION = '1';

/** Where the generated inputs are. */
export interface SampleFiles {
  readonly csvFile: string;
  readonly imageFolder: string;
  readonly parquetFile: string;
}

/** A small seeded generator (mulberry32): the same data on every machine. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Generates the sample inputs under `directory`, unless a complete set of this version is there. */
export async function ensureSampleData(directory: string): Promise<SampleFiles> {
  const files = {
    csvFile: path.join(directory, 'flowers.csv'),
    imageFolder: path.join(directory, 'images'),
    parquetFile: path.join(directory, 'weather.parquet'),
  };
  const marker = path.join(directory, `.complete-v${VERSION}`);
  if (await exists(marker)) return files;
  await rm(directory, { recursive: true, force: true });
  await mkdir(directory, { recursive: true });
  await writeCsv(files.csvFile);
  await writeImages(files.imageFolder);
  await writeParquet(files.parquetFile);
  await writeFile(marker, '');
  return files;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

async function writeCsv(file: string): Promise<void> {
  const next = random(42);
  const lines = ['id,sepal_length,sepal_width,petal_length,petal_width,species'];
  for (let id = 0; id < SAMPLE.csvRows; id++) {
    const species = id % SAMPLE.species.length;
    const measure = (base: number): string => (base + species * 1.3 + next() * 0.8).toFixed(2);
    lines.push(
      [id, measure(4.6), measure(2.8), measure(1.2), measure(0.2), SAMPLE.species[species]].join(','),
    );
  }
  await writeFile(file, `${lines.join('\n')}\n`);
}

function shapeSvg(shape: string, size: number, color: string): string {
  const half = size / 2;
  const body =
    shape === 'circle'
      ? `<circle cx="${half}" cy="${half}" r="${size * 0.35}" fill="${color}"/>`
      : shape === 'square'
        ? `<rect x="${size * 0.2}" y="${size * 0.2}" width="${size * 0.6}" height="${size * 0.6}" fill="${color}"/>`
        : `<polygon points="${half},${size * 0.12} ${size * 0.88},${size * 0.85} ${size * 0.12},${size * 0.85}" fill="${color}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">${body}</svg>`;
}

async function writeImages(folder: string): Promise<void> {
  const next = random(7);
  const size = SAMPLE.imageSize;
  const jobs: Promise<unknown>[] = [];
  for (const shape of SAMPLE.classes) {
    await mkdir(path.join(folder, shape), { recursive: true });
    for (let index = 0; index < SAMPLE.imagesPerClass; index++) {
      const channel = (): number => Math.floor(next() * 200);
      const color = `rgb(${channel()},${channel()},${channel()})`;
      const background = { r: 230, g: 230, b: Math.floor(next() * 255) };
      jobs.push(
        sharp({ create: { width: size, height: size, channels: 3, background } })
          .composite([{ input: Buffer.from(shapeSvg(shape, size, color)) }])
          .png()
          .toFile(path.join(folder, shape, `${shape}-${String(index).padStart(3, '0')}.png`)),
      );
    }
  }
  await Promise.all(jobs);
}

interface ParquetWriter {
  appendRow(row: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

async function writeParquet(file: string): Promise<void> {
  // parquetjs-lite ships no types; this is the part of its API the demo uses.
  const parquet = createRequire(import.meta.url)('parquetjs-lite') as {
    ParquetSchema: new (fields: Record<string, unknown>) => unknown;
    ParquetWriter: { openFile(schema: unknown, file: string, options: object): Promise<ParquetWriter> };
  };
  const schema = new parquet.ParquetSchema({
    station_id: { type: 'INT64' },
    city: { type: 'UTF8' },
    temperature: { type: 'DOUBLE' },
    rainy: { type: 'BOOLEAN' },
    readings: { type: 'DOUBLE', repeated: true },
  });
  const writer = await parquet.ParquetWriter.openFile(schema, file, { rowGroupSize: SAMPLE.parquetRowGroup });
  const next = random(2024);
  for (let row = 0; row < SAMPLE.parquetRows; row++) {
    await writer.appendRow({
      station_id: 1000 + row,
      city: SAMPLE.cities[row % SAMPLE.cities.length],
      temperature: Math.round((next() * 40 - 5) * 10) / 10,
      rainy: next() < 0.3,
      readings: Array.from({ length: 1 + (row % 4) }, () => Math.round(next() * 1000) / 100),
    });
  }
  await writer.close();
}

// Case e's keep side (or its fs.readFile baseline) as a whole process, with wall and CPU per image by thread, for
// interleaved runs of two built trees:
//   node bench/scripts/keep-cpu.mjs TREE SIDE DATA [RUNS=60]
// TREE is a checkout with its packages built; SIDE is `keep` (imageSource with 4 in flight → imageExamples →
// tfrecordSink, what case e's `original` side runs), `keep-unhashed` (the same with image/key/sha256 off), `raw`
// (fs.readFile of every file, 4 at once) or `raw-hashed` (the same plus SHA-256); DATA is a folder of class folders of
// JPEGs like case e's, made first (as `prepare` in bench/src/cases/images.ts makes them) if it does not exist. Warms
// up for a second, as the bench does, then times RUNS runs. Prints one JSON line: the median run's wall time, and CPU
// per image in µs over the timed runs, of the process and by thread: `main`, `startup` (threads there when the script
// started: V8's platform threads and libuv's pool, which the module loader has started by then), `later` (threads
// started since: the image reader threads), and the 1-minute load average.
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const startupThreads = new Set(readdirSync('/proc/self/task'));
const [treeArgument, side, data, runsArgument = '60'] = process.argv.slice(2);
if (treeArgument === undefined || side === undefined || data === undefined) {
  console.error('usage: node keep-cpu.mjs TREE keep|keep-unhashed|raw|raw-hashed DATA [RUNS]');
  process.exit(2);
}
const tree = resolve(treeArgument);
const load = (path) => import(pathToFileURL(join(tree, 'packages', path)).href);
const { pipeline } = await load('core/dist/index.js');
const { tfrecordSink } = await load('sink-tfrecord/dist/index.js');
const { imageExamples, imageSource } = await load('source-images/dist/index.js');

if (!existsSync(data)) await prepareImages(data);
const output = join(tmpdir(), `keep-cpu-${process.pid}.tfrecord`);
const paths = [];
for (const name of (await readdir(data)).sort())
  for (const file of (await readdir(join(data, name))).sort()) paths.push(join(data, name, file));

async function eachLimited(items, limit, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}
const keep = (hash) => () =>
  pipeline(
    imageSource({ folder: data, concurrency: 4, ...(hash ? {} : { keys: { sha256: false } }) }),
    imageExamples(),
    tfrecordSink({ path: output, fsync: false }),
  ).run();
const sides = {
  keep: keep(true),
  'keep-unhashed': keep(false),
  raw: () => eachLimited(paths, 4, (path) => readFile(path)),
  'raw-hashed': () =>
    eachLimited(paths, 4, async (path) =>
      createHash('sha256')
        .update(await readFile(path))
        .digest('hex'),
    ),
};
const work = sides[side];
if (work === undefined) throw new Error(`unknown side ${side}`);

/**
 * Case e's input, made as its `prepare` makes it (bench/src/cases/images.ts, the same seed): 300 JPEGs of 640×480,
 * quality 90, in the class folders cat, dog and fox.
 */
async function prepareImages(directory) {
  const sharp = createRequire(join(tree, 'bench', 'package.json'))('sharp');
  let state = 11;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  const classes = ['cat', 'dog', 'fox'];
  for (let index = 0; index < 300; index++) {
    const folder = join(directory, classes[index % classes.length]);
    await mkdir(folder, { recursive: true });
    const pixels = Buffer.alloc(640 * 480 * 3);
    const shade = Math.floor(next() * 128);
    for (let offset = 0; offset < pixels.length; offset++)
      pixels[offset] = (shade + ((offset / 3) % 640) / 5 + Math.floor(next() * 40)) & 0xff;
    await sharp(pixels, { raw: { width: 640, height: 480, channels: 3 } })
      .jpeg({ quality: 90 })
      .toFile(join(folder, `${String(index).padStart(4, '0')}.jpg`));
  }
}

/** Each live thread's CPU time so far, ns (Linux: /proc/self/task/<tid>/schedstat). */
function threadTimes() {
  const times = new Map();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      times.set(tid, Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // The thread ended while we looked.
    }
  }
  return times;
}

const warmUp = performance.now();
while (performance.now() - warmUp < 1000) {
  await rm(output, { force: true });
  await work();
}
const runs = Number(runsArgument);
const walls = [];
const before = threadTimes();
const cpuBefore = process.cpuUsage();
for (let run = 0; run < runs; run++) {
  await rm(output, { force: true });
  const started = performance.now();
  await work();
  walls.push(performance.now() - started);
}
const cpu = process.cpuUsage(cpuBefore);
const perImage = (ns) => Math.round((ns / 1000 / runs / paths.length) * 10) / 10;
const threads = { main: 0, startup: 0, later: 0 };
for (const [tid, ns] of threadTimes()) {
  const group = tid === String(process.pid) ? 'main' : startupThreads.has(tid) ? 'startup' : 'later';
  threads[group] += ns - (before.get(tid) ?? 0);
}
walls.sort((a, b) => a - b);
await rm(output, { force: true });
console.log(
  JSON.stringify({
    tree: treeArgument,
    side,
    images: paths.length,
    medianMs: Math.round(walls[walls.length >> 1] * 100) / 100,
    cpuUsPerImage: perImage((cpu.user + cpu.system) * 1000),
    threads: Object.fromEntries(Object.entries(threads).map(([name, ns]) => [name, perImage(ns)])),
    load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0],
  }),
);

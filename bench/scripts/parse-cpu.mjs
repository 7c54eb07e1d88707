// CPU per record of the fused one-thread parse (case c), for interleaved runs of two built trees:
//   node --expose-gc bench/scripts/parse-cpu.mjs TREE FILE [WORKERS=1] [PASSES=8]
// TREE is a checkout with its packages built; FILE is written first if it does not exist (100k rows like case a's:
// 10 int64, 8 float32 and 2 short string features, written with TREE's core and sink). Each pass drains
// tfrecordDataset(FILE).parse(spec, { batchSize: 1024, workers }) with both CRCs verified; the first
// PASSES - 5 passes warm up. Prints one line: the tree, the median and minimum process CPU (all threads) per
// record over the last 5 passes, in ns, and the load average at the end.
// With --expose-gc a full collection is forced before each pass, which makes V8 drop optimized code that embeds
// an object that died with the pass's dataset (the harness forces none); without it, passes run as a training loop's.
import console from 'node:console';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { ReadableStream } from 'node:stream/web';
import { pathToFileURL } from 'node:url';

const [treeArgument, file, workersArgument = '1', passesArgument = '8'] = process.argv.slice(2);
if (treeArgument === undefined || file === undefined) {
  console.error('usage: node --expose-gc parse-cpu.mjs TREE FILE [WORKERS] [PASSES]');
  process.exit(2);
}
const tree = resolve(treeArgument);
const load = (path) => import(pathToFileURL(join(tree, 'packages', path)).href);
const core = await load('core/dist/index.js');
const { fixedLen } = await load('dataset/dist/index.js');
const { tfrecordDataset } = await load('dataset/dist/node.js');
const { tfrecordSink } = await load('sink-tfrecord/dist/index.js');

const ROWS = 100_000;
const INTS = Array.from({ length: 10 }, (_, index) => `int_${index}`);
const FLOATS = Array.from({ length: 8 }, (_, index) => `float_${index}`);
const STRINGS = ['city', 'category'];

if (!existsSync(file)) {
  const buildSpec = Object.fromEntries([
    ...INTS.map((name) => [name, 'int64']),
    ...FLOATS.map((name) => [name, 'float']),
    ...STRINGS.map((name) => [name, 'bytes']),
  ]);
  let seed = 1;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const cities = ['Amsterdam', 'Berlin', 'Chicago', 'Delhi', 'Espoo', 'Fukuoka', 'Lagos', 'Lima'];
  let index = 0;
  const rows = new ReadableStream({
    pull(controller) {
      if (index === ROWS) return controller.close();
      const row = {};
      INTS.forEach((name, at) => (row[name] = at === 0 ? index : Math.floor(next() * 10 ** ((at % 7) + 1))));
      for (const name of FLOATS) row[name] = next() * 1000 - 500;
      row.city = cities[Math.floor(next() * cities.length)];
      row.category = `cat_${Math.floor(next() * 500)}`;
      index++;
      controller.enqueue(row);
    },
  });
  await core.run(rows, core.buildExamples(buildSpec), tfrecordSink({ path: file, fsync: false }));
}

const spec = Object.fromEntries([
  ...INTS.map((name) => [name, fixedLen([], 'int64')]),
  ...FLOATS.map((name) => [name, fixedLen([], 'float32')]),
  ...STRINGS.map((name) => [name, fixedLen([], 'string')]),
]);
const workers = Number(workersArgument);
const passes = Number(passesArgument);
const perRecord = [];
for (let pass = 0; pass < passes; pass++) {
  globalThis.gc?.();
  const before = process.cpuUsage();
  let records = 0;
  const options = workers > 1 ? { batchSize: 1024, workers } : { batchSize: 1024 };
  for await (const batch of tfrecordDataset(file).parse(spec, options)) records += batch.int_0.shape[0];
  const used = process.cpuUsage(before);
  if (records !== ROWS) throw new Error(`read ${records} records, expected ${ROWS}`);
  if (pass >= passes - 5) perRecord.push(((used.user + used.system) * 1000) / records);
}
perRecord.sort((a, b) => a - b);
console.log(
  `${tree} workers=${workers} cpu/record median ${perRecord[perRecord.length >> 1].toFixed(0)} ns, min ${perRecord[0].toFixed(0)} ns; load ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);

// CPU per record of `parseExample(spec).parse` alone (no file reads, no CRCs), for interleaved runs of two built trees:
//   node bench/scripts/parse-alone-cpu.mjs TREE FILE [PASSES=10]
// FILE is a case-a-like TFRecord file (bench/scripts/parse-cpu.mjs writes one). Its payloads are copied into arrays of
// their own; each pass makes a new parser and parses them in batches of 1024. Prints the minimum and median process CPU
// per record over all passes, in ns.
import console from 'node:console';
import process from 'node:process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
const [tree, file, passes = '10'] = process.argv.slice(2);
const { fixedLen, parseExample } = await import(
  pathToFileURL(join(tree, 'packages/dataset/dist/index.js')).href
);
const bytes = readFileSync(file);
const payloads = [];
for (let at = 0; at < bytes.length;) {
  const length = bytes.readUInt32LE(at);
  payloads.push(new Uint8Array(bytes.buffer, bytes.byteOffset + at + 12, length).slice());
  at += 16 + length;
}
const INTS = Array.from({ length: 10 }, (_, index) => `int_${index}`);
const FLOATS = Array.from({ length: 8 }, (_, index) => `float_${index}`);
const spec = Object.fromEntries([
  ...INTS.map((name) => [name, fixedLen([], 'int64')]),
  ...FLOATS.map((name) => [name, fixedLen([], 'float32')]),
  ...['city', 'category'].map((name) => [name, fixedLen([], 'string')]),
]);
const times = [];
for (let pass = 0; pass < Number(passes); pass++) {
  const parser = parseExample(spec);
  const before = process.cpuUsage();
  for (let at = 0; at < payloads.length; at += 1024) parser.parse(payloads.slice(at, at + 1024));
  const used = process.cpuUsage(before);
  times.push(((used.user + used.system) * 1000) / payloads.length);
}
times.sort((a, b) => a - b);
console.log(
  tree,
  'parse alone: cpu/record min',
  times[0].toFixed(0),
  'ns, median',
  times[times.length >> 1].toFixed(0),
  'ns',
);

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scaled, timeRuns, type BenchCase, type SideDefinition } from '../harness.js';
import { TFPIPE_BIN } from '../process-side.js';
import { writeCsv } from './csv.js';
import { imagesCase } from './images.js';
import { parquetCase } from './parquet.js';

const CSV_ROWS = 1_000_000;
const PARQUET_ROWS = 1_000_000;
const IMAGES = 300;
/** Output shards of every run: fixed, so that 1 and 2 workers write the same files. */
const SHARDS = 8;

type Source = 'csv' | 'parquet' | 'images';

/** Each source's pipeline file (its sink directory filled in per side). */
function pipelineFile(source: Source, dataDirectory: string, out: string): string {
  const input = {
    csv: `plugin: csv\n  options: { path: ${join(dataDirectory, 'scale.csv')} }`,
    parquet: `plugin: parquet\n  options: { path: ${join(dataDirectory, 'data.parquet')} }`,
    images: `plugin: images\n  options: { folder: ${join(dataDirectory, 'images')}, resize: { width: 224, height: 224 }, format: jpeg, quality: 90 }`,
  }[source];
  return `source:\n  ${input}\nsink:\n  plugin: tfrecord\n  options: { directory: ${out}, shards: ${SHARDS} }\n`;
}

const THREADS_MARK = 'bench-threads ';
/**
 * Preloaded into `tfpipe run` and, inherited, into its worker processes (Linux): as each process
 * exits it prints its pid, start and end (ms since the epoch) and CPU seconds from /proc: the
 * whole process (threads that ended included), its main thread, V8's four platform threads
 * (garbage collection, compilation: the 2nd to 5th threads a Node process starts) and libuv's four
 * pool threads (file reads, writes, syncs: the 7th to 10th). What is left is the other threads,
 * e.g. the sink's CRC thread.
 */
const THREADS_PROBE =
  "data:text/javascript,import{readdirSync as d,readFileSync as r}from'node:fs';const s=Date.now();" +
  "const f=(p)=>{const t=r(p,'utf8');const x=t.slice(t.lastIndexOf(')')+2).split(' ');return(Number(x[11])+Number(x[12]))/100};" +
  "process.on('exit',()=>{try{const k=[0,0,0];d('/proc/self/task').map(Number).sort((a,b)=>a-b).forEach((id,i)=>{" +
  "const v=f('/proc/self/task/'+id+'/stat');if(i===0)k[0]+=v;else if(i>=2&&i<=5)k[1]+=v;else if(i>=7&&i<=10)k[2]+=v});" +
  `process.stderr.write('\\n${THREADS_MARK}'+[process.pid,s,Date.now(),f('/proc/self/stat'),...k].join(' ')+'\\n')}catch{}})`;

/** One process of a run, as the probe reported it. */
interface ProcessThreads {
  readonly start: number;
  readonly end: number;
  readonly total: number;
  readonly main: number;
  readonly v8: number;
  readonly uv: number;
}

/**
 * A run's processes (the parent first, then its workers by start) as `main/V8/libuv/other` CPU
 * seconds each, a worker with its start after the parent's and its end before the parent's end.
 */
export function threadsNote(lines: readonly string[]): string {
  const processes: ProcessThreads[] = lines
    .map((line) => line.slice(THREADS_MARK.length).split(' ').map(Number))
    .map(([, start, end, total, main, v8, uv]) => ({
      start: start!,
      end: end!,
      total: total!,
      main: main!,
      v8: v8!,
      uv: uv!,
    }))
    .sort((left, right) => left.start - right.start);
  const parent = processes[0];
  if (parent === undefined) return 'no thread report';
  const seconds = (value: number): string => value.toFixed(2);
  return processes
    .map((item, position) => {
      const cpu = [item.main, item.v8, item.uv, Math.max(0, item.total - item.main - item.v8 - item.uv)]
        .map(seconds)
        .join('/');
      return position === 0
        ? `P ${cpu}`
        : `W +${seconds((item.start - parent.start) / 1000)}s…−${seconds((parent.end - item.end) / 1000)}s ${cpu}`;
    })
    .join(' ');
}

/**
 * Runs `command` under /usr/bin/time; resolves with its CPU share as time prints it (`%P`) and each
 * process's CPU by thread kind ({@link threadsNote}).
 */
function timedProcess(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      '/usr/bin/time',
      ['-f', 'bench-cpu %P %U %S', process.execPath, '--import', THREADS_PROBE, ...args],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => (stderr = (stderr + text).slice(-8192)));
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = stderr.split('\n');
      const line = lines.find((item) => item.startsWith('bench-cpu '));
      const threads = threadsNote(lines.filter((item) => item.startsWith(THREADS_MARK)));
      if (code === 0 && line !== undefined) resolve(`${line.slice('bench-cpu '.length)} [${threads}]`);
      else reject(new Error(`tfpipe ${args.join(' ')} exited ${code}\n${stderr}`));
    });
  });
}

/** SHA-256 of the shard files of `directory` (names sorted), what both sides must write alike. */
async function shardsDigest(directory: string): Promise<string> {
  const hash = createHash('sha256');
  const names = (await readdir(directory)).filter((name) => name.includes('-of-')).sort();
  for (const name of names) hash.update(name).update(await readFile(join(directory, name)));
  return `${names.length} shards ${hash.digest('hex')}`;
}

/**
 * `tfpipe run PIPELINE --workers N --quiet`, a whole process per run under /usr/bin/time: its CPU
 * share goes into the note. After every run the shards' digest is checked against the first side's
 * (the `--workers 1` side runs first and records it): the same bytes for any number of workers.
 * With `copies: 2`, two such processes start at once, each over the whole input into its own
 * directory, and a run counts the items of both: what two processes that share nothing (no plan
 * split, no join, each with its own start and JIT warm-up over a whole input) get out of the
 * machine, the ceiling a second worker's speed-up is judged against.
 */
function workersSide(
  source: Source,
  workers: number,
  items: (scale: number) => number,
  copies = 1,
): SideDefinition {
  const name = copies === 1 ? `${source}-${workers}` : `${source}-${workers}x${copies}`;
  return {
    label:
      copies === 1
        ? `tfpipe run --workers ${workers} (${SHARDS} shards)`
        : `${copies} × tfpipe run --workers ${workers} at once (${SHARDS} shards each)`,
    async run(context) {
      const outs = Array.from({ length: copies }, (_, copy) =>
        join(context.workDirectory, copies === 1 ? name : `${name}-${copy}`),
      );
      const files = outs.map((out) => `${out}.yaml`);
      for (const [copy, out] of outs.entries())
        await writeFile(files[copy]!, pipelineFile(source, context.dataDirectory, out));
      const reference = join(context.dataDirectory, `${source}.digest`);
      const cpu: string[] = [];
      const result = await timeRuns(
        context.repeats,
        items(context.scale) * copies,
        async () => {
          const runs = await Promise.all(
            files.map((file) =>
              timedProcess([TFPIPE_BIN, 'run', file, '--workers', String(workers), '--quiet']),
            ),
          );
          cpu.push(runs.join(' + '));
          for (const out of outs) {
            const digest = await shardsDigest(out);
            const expected = await readFile(reference, 'utf8').catch(() => undefined);
            if (expected === undefined) await writeFile(reference, digest);
            else if (expected !== digest)
              throw new Error(`${source} ${name}: other bytes (${digest}, expected ${expected})`);
          }
        },
        `CPU (% user s sys s [per process, CPU s of main thread/V8 threads/libuv pool/others; P the parent, W a worker from its start to its end]${copies === 1 ? '' : `, the ${copies} processes joined by +`}) per run: ${'{cpu}'}; shards checked equal to --workers 1`,
        () => Promise.all(outs.map((out) => rm(out, { recursive: true, force: true }))),
      );
      return { ...result, note: result.note!.replace('{cpu}', cpu.join(', ')) };
    },
  };
}

const csvRows = (scale: number): number => scaled(CSV_ROWS, scale);
const parquetRows = (scale: number): number => scaled(PARQUET_ROWS, scale);
const images = (scale: number): number => scaled(IMAGES, scale, 3);

/**
 * Case j: one machine, all cores (issue 24). `tfpipe run --workers 2` against `--workers 1` on the
 * same pipeline (8 shards), for CSV, Parquet and resized images; whole processes, CPU share as
 * /usr/bin/time reports it, output bytes checked equal.
 */
export const scaleCase: BenchCase = {
  name: 'scale',
  title: 'j. tfpipe run --workers 2 vs --workers 1 (CSV, Parquet rows/s; images/s)',
  unit: 'items/s',
  async prepare(dataDirectory, scale, full) {
    const bytes = await writeCsv(join(dataDirectory, 'scale.csv'), csvRows(scale));
    const notes = [`CSV: ${csvRows(scale)} rows, ${(bytes / 1e6).toFixed(0)} MB`];
    notes.push(...(await parquetCase.prepare(dataDirectory, scale, full)).map((note) => `Parquet: ${note}`));
    notes.push(...(await imagesCase.prepare(dataDirectory, scale, full)).map((note) => `images: ${note}`));
    return notes;
  },
  sides: {
    'csv-1': workersSide('csv', 1, csvRows),
    'csv-2': workersSide('csv', 2, csvRows),
    'parquet-1': workersSide('parquet', 1, parquetRows),
    'parquet-2': workersSide('parquet', 2, parquetRows),
    'images-1': workersSide('images', 1, images),
    'images-2': workersSide('images', 2, images),
    'csv-1x2': workersSide('csv', 1, csvRows, 2),
    'parquet-1x2': workersSide('parquet', 1, parquetRows, 2),
    'images-1x2': workersSide('images', 1, images, 2),
  },
  comparisons: [
    { ours: 'csv-2', baseline: 'csv-1', target: 1.5 },
    { ours: 'parquet-2', baseline: 'parquet-1', target: 1.5 },
    { ours: 'images-2', baseline: 'images-1' },
    // The ceiling: two processes sharing nothing; a --workers 2 ratio above it is not to be had here.
    { ours: 'csv-1x2', baseline: 'csv-1' },
    { ours: 'parquet-1x2', baseline: 'parquet-1' },
    { ours: 'images-1x2', baseline: 'images-1' },
  ],
};

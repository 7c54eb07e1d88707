/**
 * `pnpm bench`: tfpipe's throughput against a baseline measured in the same run, as ratios, with the
 * peak RSS of each side. Every side runs in a child process of its own (so `maxRSS` is that side's),
 * on input the parent generated into a temporary directory that is deleted afterwards. Each side
 * warms up for ≥ 1 s, then reports the median of `BENCH_REPEATS` (default 5) timed runs, or of as
 * many as take ≥ 2 s when runs are short (at most 60).
 *
 * Usage: `pnpm bench [-- --case NAME[,NAME]] [--full]`; `BENCH_SCALE=0.1` shrinks every input;
 * `BENCH_ROUNDS=3` runs every side of a case three times, alternating, and reports per-round ratios.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchCase, SideResult } from './harness.js';
import { cliCase } from './cases/cli.js';
import { csvCase } from './cases/csv.js';
import { imageBatchesCase } from './cases/image-batches.js';
import { imagesCase } from './cases/images.js';
import { largeRecordsCase } from './cases/large-records.js';
import { parquetCase } from './cases/parquet.js';
import { bigReadCase, readCase, tabularCase } from './cases/tabular.js';
import { scaleCase } from './cases/scale.js';
import { tinyRecordsCase } from './cases/tiny-records.js';
import { viewerCase } from './cases/viewer.js';
import { formatComparison, formatNotes } from './report.js';

const CASES: readonly BenchCase[] = [
  tabularCase,
  largeRecordsCase,
  readCase,
  bigReadCase,
  csvCase,
  imagesCase,
  imageBatchesCase,
  parquetCase,
  tinyRecordsCase,
  cliCase,
  viewerCase,
  scaleCase,
];
const RESULT_MARK = 'BENCH_RESULT ';

function caseNamed(name: string): BenchCase {
  const found = CASES.find((candidate) => candidate.name === name);
  if (found === undefined)
    throw new Error(`no bench case "${name}"; cases: ${CASES.map((c) => c.name).join(', ')}`);
  return found;
}

async function child(caseName: string, sideName: string): Promise<void> {
  const side = caseNamed(caseName).sides[sideName];
  if (side === undefined) throw new Error(`case ${caseName} has no side ${sideName}`);
  const result = await side.run({
    dataDirectory: process.env.BENCH_DATA!,
    workDirectory: process.env.BENCH_WORK!,
    scale: Number(process.env.BENCH_SCALE),
    repeats: Number(process.env.BENCH_REPEATS),
  });
  // A side that times other processes reports their peak; every other side, this process's own.
  const peakRssBytes = result.peakRssBytes ?? process.resourceUsage().maxRSS * 1024;
  process.stdout.write(`${RESULT_MARK}${JSON.stringify({ ...result, peakRssBytes })}\n`);
}

function runSide(
  caseName: string,
  sideName: string,
  environment: Record<string, string>,
): Promise<SideResult> {
  const script = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, ['--expose-gc', script, '--child', caseName, sideName], {
      env: { ...process.env, ...environment },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    process_.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    process_.on('error', reject);
    process_.on('close', (code) => {
      const line = output.split('\n').find((text) => text.startsWith(RESULT_MARK));
      if (code !== 0 || line === undefined)
        reject(new Error(`${caseName}/${sideName} failed (exit ${code})\n${output}`));
      else resolve(JSON.parse(line.slice(RESULT_MARK.length)) as SideResult);
    });
  });
}

/**
 * Writes dirty file data out (POSIX `sync`; nothing where there is none) before each side, so that
 * the kernel's write-back of what `prepare` or an earlier side wrote (case e's 33 MB of JPEGs sat
 * dirty for ~30 s, into the first sides) is nobody's measured time.
 */
function flushWrites(): void {
  spawnSync('sync', { stdio: 'ignore' });
}

async function runCase(
  bench: BenchCase,
  scale: number,
  repeats: number,
  full: boolean,
  rounds: number,
): Promise<boolean> {
  const unavailable = bench.unavailable?.();
  if (unavailable !== undefined) {
    console.log(`\n${bench.title}\n  skipped: ${unavailable}`);
    return true;
  }
  const root = await mkdtemp(join(tmpdir(), `tfpipe-bench-${bench.name}-`));
  try {
    const dataDirectory = join(root, 'data');
    const workDirectory = join(root, 'work');
    await mkdir(dataDirectory);
    await mkdir(workDirectory);
    console.log(`\n${bench.title}`);
    console.log(formatNotes(await bench.prepare(dataDirectory, scale, full)));
    const results = new Map<string, SideResult[]>();
    const environment = {
      BENCH_DATA: dataDirectory,
      BENCH_WORK: workDirectory,
      BENCH_SCALE: String(scale),
      BENCH_REPEATS: String(repeats),
    };
    const names = Object.keys(bench.sides).filter((name) => full || !bench.fullOnly?.includes(name));
    // Every side once per round, the order reversed each round, so that a machine drifting during
    // the run weighs on every side alike; a comparison reports the median of its per-round ratios.
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        flushWrites();
        const result = await runSide(bench.name, name, environment);
        results.set(name, [...(results.get(name) ?? []), result]);
      }
    }
    let passed = true;
    for (const comparison of bench.comparisons) {
      const ours = results.get(comparison.ours);
      const baseline = results.get(comparison.baseline);
      if (ours === undefined || baseline === undefined) continue;
      const line = formatComparison(bench, comparison, ours, baseline);
      if (line.below) passed = false;
      console.log(line.text);
    }
    return passed;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return child(argv[1]!, argv[2]!);
  const scale = Number(process.env.BENCH_SCALE ?? '1');
  const repeats = Number(process.env.BENCH_REPEATS ?? '5');
  const rounds = Number(process.env.BENCH_ROUNDS ?? '1');
  if (!(scale > 0) || !Number.isInteger(repeats) || repeats < 1 || !Number.isInteger(rounds) || rounds < 1)
    throw new Error('BENCH_SCALE > 0, BENCH_REPEATS ≥ 1, BENCH_ROUNDS ≥ 1');
  const full = argv.includes('--full');
  const caseIndex = argv.indexOf('--case');
  const selected =
    caseIndex === -1 ? CASES : (argv[caseIndex + 1] ?? '').split(',').map((name) => caseNamed(name));
  console.log(
    `tfpipe bench: Node ${process.version}, scale ${scale}, warm-up ≥ 1 s (at least 1 run) + median of ${repeats} runs or of ≥ 2 s of runs, each side in its own process${rounds > 1 ? `, ${rounds} rounds alternating the sides` : ''}${full ? ', --full' : ''}`,
  );
  let allPassed = true;
  for (const bench of selected) allPassed = (await runCase(bench, scale, repeats, full, rounds)) && allPassed;
  console.log(allPassed ? '\nAll targets met.' : '\nSome targets were not met (BELOW).');
}

await main();

/** The shapes every benchmark case shares, and the timing rule: a warm-up of at least a second, then the median of N. */
import { rm } from 'node:fs/promises';

/** What a case's sides get in their child process. */
export interface SideContext {
  /** Where the parent generated the case's input files. */
  readonly dataDirectory: string;
  /** A scratch directory for outputs; a side deletes its last output before each run ({@link removing}). */
  readonly workDirectory: string;
  /** BENCH_SCALE: 1 is the size the issues name; smaller runs faster. */
  readonly scale: number;
  /** Timed runs after the warm-up. */
  readonly repeats: number;
}

/** What one side measured. */
export interface SideResult {
  /** Items per second (the median run). */
  readonly rate: number;
  /** Items per timed run. */
  readonly items: number;
  /** Every timed run's rate, in run order. */
  readonly samples: readonly number[];
  /** Peak resident set size of the child process, in bytes (filled in by the child runner). */
  readonly peakRssBytes?: number;
  /** Anything a reader of the table should know about this side. */
  readonly note?: string;
}

/** One line of the ratios table: our side against a baseline side. */
export interface Comparison {
  readonly ours: string;
  readonly baseline: string;
  /** The ratio ours / baseline the issues ask for; undefined: report only. */
  readonly target?: number;
}

/** A benchmark case: input generated once by the parent, each side measured in its own process. */
export interface BenchCase {
  readonly name: string;
  readonly title: string;
  readonly unit: string;
  /** Generates the input files into `dataDirectory`; returns notes for the report (sizes …). */
  prepare(dataDirectory: string, scale: number, full: boolean): Promise<readonly string[]>;
  /** Side name → what it measures. Runs in a child process of its own. */
  readonly sides: Readonly<Record<string, SideDefinition>>;
  readonly comparisons: readonly Comparison[];
  /** Sides to run only with `--full`. */
  readonly fullOnly?: readonly string[];
  /** Why the case cannot run on this machine (a browser missing), or undefined when it can. */
  unavailable?(): string | undefined;
}

export interface SideDefinition {
  /** What the table calls this side. */
  readonly label: string;
  run(context: SideContext): Promise<SideResult>;
}

/**
 * Warm-up: runs until this much time has passed (and at least once), as JMH, mitata and tinybench
 * do, so that short runs (case a takes ~60 ms) are measured after the JIT has settled rather than
 * while it compiles. Longer cases are warmed by their first run alone.
 */
export const WARM_UP_MS = 1000;
const MAX_WARM_UPS = 20;

/** Timed runs go on until they add up to this much (at least the repeats asked for), milliseconds. */
export const MIN_TIMED_MS = 2000;
/** Timed runs at most, whatever {@link MIN_TIMED_MS} asks. */
const MAX_RUNS = 60;

/**
 * Runs `once` to warm up (see {@link WARM_UP_MS}), then `repeats` times (more for short runs, see
 * {@link MIN_TIMED_MS}), and returns the median rate.
 * The note also gives the first, cold run's rate. `before` runs ahead of every run, untimed: it
 * deletes the last run's output, which is the harness's housekeeping, not the work measured (for
 * case e's 33 MB output it took ~2.7 ms of a ~36 ms run).
 */
export async function timeRuns(
  repeats: number,
  items: number,
  once: (round: number) => Promise<void>,
  note?: string,
  before?: () => Promise<unknown>,
): Promise<SideResult> {
  /** One run of `once(round)` after `before` (untimed): its milliseconds. */
  const time = async (round: number): Promise<number> => {
    await before?.();
    const started = performance.now();
    await once(round);
    return performance.now() - started;
  };
  const warmStart = performance.now();
  const cold = items / ((await time(-1)) / 1000);
  for (let round = 1; round < MAX_WARM_UPS && performance.now() - warmStart < WARM_UP_MS; round++)
    await time(-1);
  const samples: number[] = [];
  // No forced collection between runs: a forced gc() makes V8 drop its optimized code (measured: 143
  // functions optimized over 5 runs instead of 59), so every run would re-warm the JIT.
  // At least `repeats` runs, and more while the timed runs add up to less than MIN_TIMED_MS: a
  // median of 5 runs of 35 ms spans 0.2 s, which one burst of noise on a shared machine covers.
  let timed = 0;
  for (let round = 0; round < repeats || (timed < MIN_TIMED_MS && round < MAX_RUNS); round++) {
    const elapsed = await time(round);
    timed += elapsed;
    samples.push(items / (elapsed / 1000));
  }
  const rate = median(samples);
  const coldNote = `cold first run ${(cold / rate).toFixed(2)}x the median`;
  return {
    rate,
    items,
    samples,
    note: note === undefined ? coldNote : `${note}; ${coldNote}`,
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Deletes `path` if it is there: a {@link timeRuns} `before` for a side that writes `path`. */
export function removing(path: string): () => Promise<void> {
  return () => rm(path, { force: true });
}

/** A full collection (the start script passes --expose-gc): only before a single cold run ({@link timeOnce}). */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** `count` scaled by BENCH_SCALE, at least `minimum`. */
export function scaled(count: number, scale: number, minimum = 1): number {
  return Math.max(minimum, Math.round(count * scale));
}

/** A small deterministic PRNG (mulberry32), so every run writes the same data. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** One timed run with no warm-up: for the larger inputs that only show how memory grows. */
export async function timeOnce(
  items: number,
  once: () => Promise<void>,
  note?: string,
  before?: () => Promise<unknown>,
): Promise<SideResult> {
  await before?.();
  collectGarbage();
  const started = performance.now();
  await once();
  const rate = items / ((performance.now() - started) / 1000);
  return { rate, items, samples: [rate], ...(note === undefined ? {} : { note }) };
}

/** The shapes every benchmark case shares, and the timing rule: one warm-up, then the median of N. */

/** What a case's sides get in their child process. */
export interface SideContext {
  /** Where the parent generated the case's input files. */
  readonly dataDirectory: string;
  /** A scratch directory for outputs, emptied between runs by the side itself. */
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
}

export interface SideDefinition {
  /** What the table calls this side. */
  readonly label: string;
  run(context: SideContext): Promise<SideResult>;
}

/** Runs `once` one time to warm up, then `repeats` times, and returns the median rate. */
export async function timeRuns(
  repeats: number,
  items: number,
  once: (round: number) => Promise<void>,
  note?: string,
): Promise<SideResult> {
  await once(-1);
  const samples: number[] = [];
  for (let round = 0; round < repeats; round++) {
    collectGarbage();
    const started = performance.now();
    await once(round);
    const seconds = (performance.now() - started) / 1000;
    samples.push(items / seconds);
  }
  return { rate: median(samples), items, samples, ...(note === undefined ? {} : { note }) };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A full collection between runs (the start script passes --expose-gc), so runs do not pay for each other. */
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
export async function timeOnce(items: number, once: () => Promise<void>, note?: string): Promise<SideResult> {
  collectGarbage();
  const started = performance.now();
  await once();
  const rate = items / ((performance.now() - started) / 1000);
  return { rate, items, samples: [rate], ...(note === undefined ? {} : { note }) };
}

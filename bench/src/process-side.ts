/**
 * Sides that time a whole process per run, start-up included: what a user's shell runs. The CLI's
 * sides run the built `tfpipe` binary; their baselines run a script of ours doing only the baseline
 * work, so both pay Node's start-up alike.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { median, removing, scaled, timeRuns, type SideContext, type SideDefinition } from './harness.js';

/** The built `tfpipe` binary of this checkout. */
export const TFPIPE_BIN = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));

/** A baseline script built beside the harness (`src/processes/NAME.ts` → `dist/processes/NAME.js`). */
export function baselineScript(name: string): string {
  return fileURLToPath(new URL(`./processes/${name}.js`, import.meta.url));
}

const RSS_MARK = 'bench-peak-rss ';
/**
 * Preloaded into every timed process: prints its peak RSS (bytes) and its CPU time (user + system
 * microseconds, all its threads) on stderr as it exits.
 */
const RSS_PROBE = `data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('\\n${RSS_MARK}'+u.maxRSS*1024+' '+(u.userCPUTime+u.systemCPUTime)+'\\n')})`;

/** What one timed process used. */
export interface ProcessUsage {
  /** Peak resident set size, bytes. */
  readonly peakRssBytes: number;
  /** User + system CPU time of all its threads, seconds. */
  readonly cpuSeconds: number;
}

/**
 * Runs `node ...args` to its end and resolves with its peak RSS and CPU time; rejects with its
 * stderr when it exits non-zero.
 */
export function runProcess(args: readonly string[]): Promise<ProcessUsage> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', RSS_PROBE, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      stderr = (stderr + text).slice(-8192);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const mark = stderr.lastIndexOf(RSS_MARK);
      const [rss = '0', cpu = '0'] =
        mark === -1
          ? []
          : stderr
              .slice(mark + RSS_MARK.length)
              .trim()
              .split(/\s+/);
      if (code === 0) resolve({ peakRssBytes: Number(rss), cpuSeconds: Number(cpu) / 1e6 });
      else reject(new Error(`node ${args.join(' ')} exited ${code ?? signal}\n${stderr}`));
    });
  });
}

/** How one process side is run. */
export interface ProcessSideOptions {
  /** What the table calls this side. */
  readonly label: string;
  /** Items one run handles at BENCH_SCALE 1 (scaled like the in-process sides). */
  readonly items: number;
  /** The arguments after `node`. */
  readonly args: (context: SideContext) => readonly string[];
  /** A file or directory the run writes, deleted (untimed) before each run. */
  readonly output?: (context: SideContext) => string;
  /** Fewest items at small scales. */
  readonly minimumItems?: number;
}

/**
 * A side timing one whole `node …` process per run; its peak RSS is the largest of those processes'.
 * Its note gives the median CPU time of the timed processes (all their threads) and the 1-minute
 * load average before and after the side, for shared machines where the wall says little.
 */
export function processSide(options: ProcessSideOptions): SideDefinition {
  return {
    label: options.label,
    async run(context) {
      let peakRssBytes = 0;
      const cpuSeconds: number[] = [];
      const loadBefore = loadavg()[0]!;
      const result = await timeRuns(
        context.repeats,
        scaled(options.items, context.scale, options.minimumItems),
        async (round) => {
          const usage = await runProcess(options.args(context));
          peakRssBytes = Math.max(peakRssBytes, usage.peakRssBytes);
          if (round >= 0) cpuSeconds.push(usage.cpuSeconds);
        },
        'whole process per run',
        options.output === undefined ? undefined : removing(options.output(context)),
      );
      const usage = `CPU per process ${median(cpuSeconds).toFixed(2)} s (${Math.min(...cpuSeconds).toFixed(2)}–${Math.max(...cpuSeconds).toFixed(2)}), load average ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`;
      return { ...result, peakRssBytes, note: `${result.note ?? ''}; ${usage}` };
    },
  };
}

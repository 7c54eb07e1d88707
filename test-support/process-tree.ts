// The resident memory and CPU time of a process's descendants (Linux /proc): what a browser with its
// renderer, GPU and utility processes holds and spends, which no single process's maxRSS shows, and
// CPU time, which a machine shared with other work slows less than it slows the wall clock.
import { readFileSync, readdirSync } from 'node:fs';

/** The fields of /proc/PID/stat after "pid (comm)" (comm may hold spaces), or `undefined` once it is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Resident set size of process `pid` in bytes (0 once it is gone). */
function residentBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
    return match === null ? 0 : Number(match[1]) * 1024;
  } catch {
    return 0;
  }
}

/**
 * The summed resident set size, in bytes, of the descendants of process `rootPid` (a browser that
 * playwright-core launched is a child of the process that launched it), and of `rootPid` itself
 * when `includeRoot`; `undefined` where there is no /proc (not Linux). Shared pages count once per
 * process, so this is an upper bound.
 * @default includeRoot false
 */
export function processTreeRss(rootPid: number, includeRoot = false): number | undefined {
  const pids = descendants(rootPid);
  if (pids === undefined) return undefined;
  return (includeRoot ? [rootPid, ...pids] : pids).reduce((total, pid) => total + residentBytes(pid), 0);
}

/** Clock ticks per second of /proc/PID/stat's times (USER_HZ: 100 on every Linux port). */
const TICKS_PER_SECOND = 100;

/**
 * User and system CPU seconds spent so far by the living descendants of `rootPid` (a process that
 * has exited no longer counts); `undefined` without /proc.
 */
export function processTreeCpuSeconds(rootPid: number): number | undefined {
  const pids = descendants(rootPid);
  if (pids === undefined) return undefined;
  let ticks = 0;
  for (const pid of pids) {
    const fields = statFields(pid);
    // Fields 14 and 15 of stat (utime, stime) are 11 and 12 after "pid (comm)".
    if (fields !== undefined) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / TICKS_PER_SECOND;
}

/** Every descendant of `rootPid`, or `undefined` where there is no /proc. */
function descendants(rootPid: number): number[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const parent = statFields(pid)?.[1];
    if (parent !== undefined) children.set(Number(parent), [...(children.get(Number(parent)) ?? []), pid]);
  }
  const found: number[] = [];
  const pending = [...(children.get(rootPid) ?? [])];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    found.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return found;
}

/**
 * Samples {@link processTreeRss} (descendants only) every `intervalMs` until stopped; `stop()`
 * returns the peak seen, in bytes (`undefined` without /proc).
 * @param intervalMs - milliseconds between samples. @default 100
 */
export function watchPeakRss(rootPid: number, intervalMs = 100): { stop(): number | undefined } {
  let peak = processTreeRss(rootPid);
  const timer = setInterval(() => {
    const now = processTreeRss(rootPid);
    if (now !== undefined) peak = Math.max(peak ?? 0, now);
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      const now = processTreeRss(rootPid);
      return now === undefined ? peak : Math.max(peak ?? 0, now);
    },
  };
}

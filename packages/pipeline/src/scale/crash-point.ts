/** The points where a test may have a worker killed (`TFPIPE_TEST_CRASH`). */
export type CrashPoint = 'mid-write' | 'before-rename' | 'before-marker';

/**
 * Kills this process with SIGKILL at `point` when the environment variable `TFPIPE_TEST_CRASH` names
 * it: only tests set it, to prove that a worker dying there loses and duplicates nothing.
 */
export function crashPoint(point: CrashPoint): void {
  if (process.env.TFPIPE_TEST_CRASH === point) process.kill(process.pid, 'SIGKILL');
}

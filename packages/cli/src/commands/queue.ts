import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TfpipeError } from '@tfpipe/core';
import {
  enqueuePlan,
  queueStatus,
  readPlanFile,
  resumePlan,
  runQueueWorker,
  type QueuedPlan,
} from '@tfpipe/pipeline';
import type { FlagValues } from '../command.js';
import { booleanFlag, integerFlag, requirePositionals, stringFlag } from '../flags.js';
import type { CliIo } from '../io.js';
import { writeLine } from '../io.js';

/** The tfpipe executable this process runs, for the worker's child processes. */
const BIN = fileURLToPath(new URL('./bin.js', import.meta.url));
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

function redisOf(values: FlagValues): string {
  const redis = stringFlag(values, 'redis');
  if (redis === undefined)
    throw new TfpipeError('INVALID_OPTION', 'missing --redis URL', { stage: 'cli', fatal: true });
  return redis;
}

async function queuedPlan(file: string, io: CliIo): Promise<QueuedPlan> {
  const path = resolve(io.cwd, file);
  const plan = await readPlanFile(path);
  return { file: path, id: plan.checksum, shardCount: plan.shardCount };
}

/** `tfpipe queue [resume | status] PLAN --redis URL`. */
export async function queuePlan(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  const action = positionals[0] === 'resume' || positionals[0] === 'status' ? positionals[0] : 'add';
  const [file] = requirePositionals(action === 'add' ? positionals : positionals.slice(1), 'PLAN file') as [
    string,
  ];
  const plan = await queuedPlan(file, io);
  const queue = stringFlag(values, 'queue');
  const attempts = integerFlag(values, 'attempts', 1);
  const options = {
    redis: redisOf(values),
    ...(queue === undefined ? {} : { queue }),
    ...(attempts === undefined ? {} : { attempts }),
  };
  if (action === 'status') {
    const status = await queueStatus(plan, options);
    if (booleanFlag(values, 'json')) await writeLine(io.stdout, JSON.stringify(status));
    else {
      const counts = new Map<string, number[]>();
      for (const [index, state] of status.shards.entries())
        counts.set(state, [...(counts.get(state) ?? []), index]);
      for (const [state, indexes] of counts) await writeLine(io.stdout, `${state}: ${indexes.join(' ')}`);
      await writeLine(io.stdout, `finalize: ${status.finalize}`);
    }
    return 0;
  }
  if (action === 'resume') {
    const { retried, reenqueued } = await resumePlan(plan, options);
    await writeLine(
      io.stdout,
      `resumed ${retried.length} failed shard(s)${retried.length > 0 ? ` (${retried.join(' ')})` : ''}` +
        (reenqueued.length > 0 ? `; enqueued ${reenqueued.length} missing again` : ''),
    );
    return 0;
  }
  const result = await enqueuePlan(plan, options);
  await writeLine(
    io.stdout,
    `queued ${result.added} of ${result.shards} shard job(s) on ${result.queue} (the rest were queued already); finalize job ${result.finalizeJob}`,
  );
  return 0;
}

/** Runs `tfpipe ARGS` as a child process; a non-zero exit is the child's last error line. */
function runSelf(args: readonly string[], cwd: string, signal: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      signal,
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.once('error', fail);
    child.once('exit', (code, killed) => {
      if (code === 0) return done();
      const last = stderr.trim().split('\n').at(-1) ?? '';
      fail(
        new Error(
          `tfpipe ${args.join(' ')} ${killed === null ? `exited ${code}` : `was killed (${killed})`}: ${last}`,
        ),
      );
    });
  });
}

/** `tfpipe worker --redis URL`. */
export async function runWorker(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  // A plan named without --until-done would otherwise be ignored without a word.
  requirePositionals(positionals, '', 0, 0);
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  for (const name of SIGNALS) process.once(name, onSignal);
  const untilDone = stringFlag(values, 'until-done');
  const queue = stringFlag(values, 'queue');
  const concurrency = integerFlag(values, 'concurrency', 1);
  const lockDuration = integerFlag(values, 'lock-ms', 1);
  const maxStalledCount = integerFlag(values, 'max-stalled', 0);
  const unreachableMs = integerFlag(values, 'unreachable-ms', 1);
  try {
    await runQueueWorker({
      redis: redisOf(values),
      ...(queue === undefined ? {} : { queue }),
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(lockDuration === undefined ? {} : { lockDuration }),
      ...(maxStalledCount === undefined ? {} : { maxStalledCount }),
      ...(unreachableMs === undefined ? {} : { unreachableMs }),
      ...(untilDone === undefined ? {} : { untilPlanDone: (await queuedPlan(untilDone, io)).id }),
      signal: stop.signal,
      work: (plan, index, signal) =>
        runSelf(['work', plan, '--index', String(index), '--quiet'], io.cwd, signal),
      finalize: (plan, signal) => runSelf(['finalize', plan], io.cwd, signal),
      onEvent: (event) => {
        const what = event.index === undefined ? 'finalize' : `shard ${event.index}`;
        const line = event.type === 'failed' ? `${what} failed: ${event.message}` : `${what} ${event.type}`;
        void writeLine(io.stderr, line).catch(() => undefined);
      },
    });
  } finally {
    for (const name of SIGNALS) process.off(name, onSignal);
  }
  return 0;
}

// A queue worker process for the Redis tests: its work writes `shard-<index>` (temporary name, then
// rename) after a short wait, and it can be told to die or fail at an index. Settings come from env.
import { appendFile, readdir, rename, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { runQueueWorker } from '@tfpipe/pipeline';

const env = process.env;
const out = env.OUT_DIR;
const once = (name) => {
  const marker = join(out, `.${name}`);
  if (existsSync(marker)) return false;
  return writeFile(marker, '').then(() => true);
};

await runQueueWorker({
  redis: env.REDIS_URL,
  queue: env.QUEUE_NAME,
  lockDuration: Number(env.LOCK_MS ?? 1500),
  maxStalledCount: Number(env.MAX_STALLED ?? 3),
  concurrency: 1,
  untilPlanDone: env.PLAN_ID,
  async work(plan, index) {
    if (String(index) === env.CRASH_INDEX && (await once(`crash-${index}`)))
      process.kill(process.pid, 'SIGKILL');
    if (String(index) === env.CRASH_ALWAYS_INDEX) process.kill(process.pid, 'SIGKILL');
    await sleep(Number(env.WORK_MS ?? 200));
    if (String(index) === env.FAIL_ONCE_INDEX && (await once(`fail-${index}`)))
      throw new Error(`shard ${index} failed once`);
    const file = join(out, `shard-${index}`);
    await writeFile(`${file}.tmp-${process.pid}`, `${plan} ${index}\n`);
    await rename(`${file}.tmp-${process.pid}`, file);
  },
  async finalize(plan) {
    const shards = (await readdir(out)).filter(
      (name) => name.startsWith('shard-') && !name.includes('.tmp-'),
    );
    await appendFile(join(out, 'finalize-runs'), `${process.pid}\n`);
    await writeFile(join(out, 'manifest'), `${plan}\n${shards.sort().join('\n')}\n`);
  },
});

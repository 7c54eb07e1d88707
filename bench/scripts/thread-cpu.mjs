// Preload (`node --import ./bench/scripts/thread-cpu.mjs …`) that appends, when the process exits, one line to
// $THREAD_CPU_LOG: $THREAD_CPU_TAG, then each live thread's name and CPU time in ms (from
// /proc/self/task/*/schedstat, Linux only), in thread-creation order: the main thread first, then V8's platform
// threads, libuv's pool, worker threads and libvips'. Threads that ended before the exit are not listed.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import process from 'node:process';

process.on('exit', () => {
  const log = process.env.THREAD_CPU_LOG;
  if (log === undefined) return;
  const threads = [];
  for (const tid of readdirSync('/proc/self/task').sort((a, b) => Number(a) - Number(b))) {
    try {
      const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      threads.push(`${name}=${Math.round(ns / 1e6)}`);
    } catch {
      // The thread ended while we looked.
    }
  }
  appendFileSync(log, `${process.env.THREAD_CPU_TAG ?? ''} ${threads.join(' ')}\n`);
});

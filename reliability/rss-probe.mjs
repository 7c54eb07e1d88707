// Preloaded with `node --import ./reliability/rss-probe.mjs …`: samples RSS every 10 ms and prints the
// peak as `tfpipe-rss-peak <bytes>` on stderr when the process exits, so soak runs measure the real CLI.
import { memoryUsage } from 'node:process';

let peak = memoryUsage.rss();
const timer = setInterval(() => {
  peak = Math.max(peak, memoryUsage.rss());
}, 10);
timer.unref();
process.on('exit', () => {
  peak = Math.max(peak, memoryUsage.rss());
  process.stderr.write(`\ntfpipe-rss-peak ${peak}\n`);
});

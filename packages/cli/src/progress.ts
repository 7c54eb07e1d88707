import type { Progress } from '@tfpipe/core';
import { formatBytes, formatCount } from './preview.js';

/**
 * A progress callback that redraws one line on a TTY (records, bytes, rate, current shard) and does
 * nothing elsewhere, so logs and pipes stay clean. Call the returned `done` before printing the summary.
 */
export function ttyProgress(stream: NodeJS.WritableStream & { isTTY?: boolean }, quiet: boolean) {
  const active = stream.isTTY === true && !quiet;
  let drawn = false;
  return {
    onProgress: (progress: Progress): void => {
      if (!active) return;
      const shard = progress.currentShard === undefined ? '' : `  → ${progress.currentShard}`;
      const line = `${formatCount(progress.records)} records  ${formatBytes(progress.bytes)}  ${formatCount(
        progress.recordsPerSecond,
      )}/s${shard}`;
      stream.write(`\r\u001b[2K${line}`);
      drawn = true;
    },
    done: (): void => {
      if (drawn) stream.write('\r\u001b[2K');
      drawn = false;
    },
  };
}

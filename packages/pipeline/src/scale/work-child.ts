/**
 * The child process of `runPlannedPipeline({ workers })`: reads the plan once, then works each index
 * its parent sends (`{ index }`), answering `{ done }` or `{ failed }` and sending progress, until
 * told `{ exit: true }`. Built as its own file (`dist/work-child.js`) so that it can be forked.
 */
import { TfpipeError } from '@tfpipe/core';
import { readPlanFile } from './plan-file.js';
import { workShard } from './work-shard.js';

const planFile = process.argv[2]!;
const plan = await readPlanFile(planFile);
const send = (message: object): void => {
  process.send?.(message);
};

process.on('message', (message: { index?: number; exit?: boolean }) => {
  if (message.exit === true || message.index === undefined) {
    process.disconnect?.();
    return;
  }
  const index = message.index;
  workShard(plan, index, { onProgress: (progress) => send({ index, records: progress.records }) }).then(
    ({ marker }) => send({ done: index, records: marker.files.reduce((sum, file) => sum + file.records, 0) }),
    (error: unknown) =>
      send({
        failed: index,
        error: TfpipeError.is(error) ? error.toJSON() : { code: 'INTERNAL', message: String(error) },
      }),
  );
});
send({ ready: true });

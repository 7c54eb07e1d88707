/**
 * The child process of `runPlannedPipeline({ workers })`: started before the plan exists, it waits
 * for `{ plan }` (the plan file's path), reads the plan once, answers `{ ready }`, then works each
 * index its parent sends (`{ index }`), answering `{ done }` or `{ failed }` and sending progress,
 * until told `{ exit: true }`. Built as its own file (`dist/work-child.js`) so that it can be forked.
 */
import { TfpipeError } from '@tfpipe/core';
import { readPlanFile } from './plan-file.js';
import type { ScalePlan } from './plan-types.js';
import { workShard } from './work-shard.js';

const send = (message: object): void => {
  process.send?.(message);
};
const failed = (index: number, error: unknown): void =>
  send({
    failed: index,
    error: TfpipeError.is(error) ? error.toJSON() : { code: 'INTERNAL', message: String(error) },
  });

let plan: Promise<ScalePlan> | undefined;

process.on('message', (message: { plan?: string; index?: number; exit?: boolean }) => {
  if (message.plan !== undefined) {
    plan = readPlanFile(message.plan);
    plan.then(
      () => send({ ready: true }),
      (error: unknown) => failed(-1, error),
    );
    return;
  }
  if (message.exit === true || message.index === undefined || plan === undefined) {
    // After this handler returns: Node goes on reading the channel's messages once a handler is done,
    // and a channel closed inside the handler made it throw (its state is null by then).
    setImmediate(() => {
      if (process.connected) process.disconnect?.();
    });
    return;
  }
  const index = message.index;
  plan
    .then((read) =>
      workShard(read, index, { onProgress: (progress) => send({ index, records: progress.records }) }),
    )
    .then(
      ({ marker }) =>
        send({ done: index, records: marker.files.reduce((sum, file) => sum + file.records, 0) }),
      (error: unknown) => failed(index, error),
    );
});

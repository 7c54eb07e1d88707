/**
 * The child process of `runPlannedPipeline({ workers })`: started before the plan exists, it waits
 * for `{ plan, lanes }` (the plan file's path, the processes working it), reads the plan once,
 * answers `{ ready }`, then works each task its parent sends (`{ task, index }` for a whole index,
 * with `units` for a part of one), answering `{ done }` (with the part written, for a part) or
 * `{ failed }` and sending progress, until told `{ exit: true }`. Built as its own file (`dist/work-child.js`) so that it can be forked.
 */
import { TfpipeError } from '@tfpipe/core';
import { readPlanFile } from './plan-file.js';
import type { ScalePlan } from './plan-types.js';
import { workPart } from './work-parts.js';
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
/** Processes working the plan at once (see WorkShardOptions.lanes). */
let lanes = 1;

process.on(
  'message',
  (message: {
    plan?: string;
    lanes?: number;
    task?: number;
    index?: number;
    units?: number[];
    exit?: boolean;
  }) => {
    if (message.plan !== undefined) {
      plan = readPlanFile(message.plan);
      lanes = message.lanes ?? 1;
      plan.then(
        () => send({ ready: true }),
        (error: unknown) => failed(-1, error),
      );
      return;
    }
    if (
      message.exit === true ||
      message.task === undefined ||
      message.index === undefined ||
      plan === undefined
    ) {
      // After this handler returns: Node goes on reading the channel's messages once a handler is done,
      // and a channel closed inside the handler made it throw (its state is null by then).
      setImmediate(() => {
        if (process.connected) process.disconnect?.();
      });
      return;
    }
    const { task, index, units } = message;
    const options = {
      lanes,
      onProgress: (progress: { records: number }) => send({ task, records: progress.records }),
    };
    plan
      .then(async (read) => {
        if (units !== undefined) {
          const part = await workPart(read, index, units, options);
          send({
            done: task,
            records: part.files.reduce((sum, file) => sum + file.written.records, 0),
            part,
          });
          return;
        }
        const { marker } = await workShard(read, index, options);
        send({ done: task, records: marker.files.reduce((sum, file) => sum + file.records, 0) });
      })
      .catch((error: unknown) => failed(task, error));
  },
);

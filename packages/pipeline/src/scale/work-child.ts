/**
 * The child process of `runPlannedPipeline({ workers })`: started before the plan exists, it waits
 * for `{ plan, lanes, tasks, claims }` (the plan file's path, the processes working it, the run's
 * tasks, and the directory the lanes take them from: see `TaskClaims`), reads the plan once, then
 * takes and works tasks (a whole index, or with `units` a part of one) until none is left, answering
 * `{ done }` (with the part written, for a part) or `{ failed }` and sending progress, and leaves.
 * `{ exit: true }`, or the channel closing, makes it take no more. `{ warm: plugins }`, sent while
 * the parent plans, has it load the pipeline's plugins (and the TFRecord sink's staging helpers) in
 * the meantime, so that its first task does not. Built as its own file
 * (`dist/work-child.js`) so that it can be forked.
 */
import { TfpipeError } from '@tfpipe/core';
import { importSinkTfrecord } from '../plugins/import-peer.js';
import { preloadKnownPlugin } from '../plugins/resolve-plugin.js';
import { readPlanFile } from './plan-file.js';
import type { LaneTask } from './run-planned.js';
import { TaskClaims, workLane } from './work-lane.js';
import { workPart } from './work-parts.js';
import { workShard } from './work-shard.js';

/** Messages not yet handed to the channel: it is closed only once they are. */
const sending = new Set<Promise<void>>();
const send = (message: object): void => {
  if (process.send === undefined) return;
  const sent = new Promise<void>((resolve) => process.send!(message, undefined, {}, () => resolve()));
  sending.add(sent);
  void sent.then(() => sending.delete(sent));
};
const failed = (task: number, error: unknown): void =>
  send({
    failed: task,
    error: TfpipeError.is(error) ? error.toJSON() : { code: 'INTERNAL', message: String(error) },
  });

/** Told to take no more tasks. */
let stopping = false;
let working = false;

/** Closes the channel once every message is out, so that the process ends. */
async function leave(): Promise<void> {
  while (sending.size > 0) await Promise.all(sending);
  if (process.connected) process.disconnect();
}

/** Loads the plugins the pipeline names before the plan comes; a failure is the first task's to report. */
async function warm(plugins: readonly string[]): Promise<void> {
  await Promise.all([
    ...plugins.map((plugin) => preloadKnownPlugin(plugin)),
    importSinkTfrecord("a plan's work").catch(() => undefined),
  ]);
}

/** Reads the plan, then works the tasks this process takes until none is left. */
async function work(
  planFile: string,
  lanes: number,
  tasks: readonly LaneTask[],
  claims: string,
): Promise<void> {
  let reported = false;
  try {
    const plan = await readPlanFile(planFile);
    await workLane(
      new TaskClaims(claims, tasks.length),
      async (id, inputRead, signal) => {
        const { index, units } = tasks[id]!;
        const options = {
          lanes,
          signal,
          onInputRead: inputRead,
          onProgress: (progress: { records: number }) => send({ task: id, records: progress.records }),
        };
        try {
          if (units !== undefined) {
            const part = await workPart(plan, index, units, options);
            const records = part.files.reduce((sum, file) => sum + file.written.records, 0);
            send({ done: id, records, part });
          } else {
            const { marker } = await workShard(plan, index, options);
            send({ done: id, records: marker.files.reduce((sum, file) => sum + file.records, 0) });
          }
        } catch (error) {
          // An abort after the lane's other task failed says nothing new.
          if (!signal.aborted) failed(id, error);
          reported = true;
          throw error;
        }
      },
      () => stopping,
    );
  } catch (error) {
    // A task's failure went out with its id; reading the plan or taking a task fails here.
    if (!reported) failed(-1, error);
  }
}

// A parent that went away takes no more output: the task under way ends, no other starts.
process.on('disconnect', () => {
  stopping = true;
});

process.on(
  'message',
  (message: {
    plan?: string;
    lanes?: number;
    tasks?: LaneTask[];
    claims?: string;
    exit?: boolean;
    warm?: string[];
  }) => {
    if (message.warm !== undefined) {
      if (!working) void warm(message.warm);
      return;
    }
    if (message.exit === true) stopping = true;
    else if (
      !working &&
      message.plan !== undefined &&
      message.tasks !== undefined &&
      message.claims !== undefined
    ) {
      working = true;
      void work(message.plan, message.lanes ?? 1, message.tasks, message.claims).then(leave);
      return;
    }
    // After this handler returns: Node goes on reading the channel's messages once a handler is done,
    // and a channel closed inside the handler made it throw (its state is null by then).
    if (!working) setImmediate(() => void leave());
  },
);

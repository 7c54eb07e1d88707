import { reportOf } from '@tfpipe/core';
import { markLending, releasesThrough, SINK_RELEASES } from '@tfpipe/core/internal';
import { attachReport, type Reporter } from '@tfpipe/core/plugin';
import { mergeReports } from './merge-reports.js';

/**
 * Stages and a sink as one `WritableStream`: writing to it writes into the first stage, and it
 * closes only when the sink has closed (everything flushed and finalised). An error anywhere
 * errors it; aborting it aborts the chain (the sink removes its temporaries). Its report merges
 * the stages' and the sink's reports (the sink's records, bytes and shards). It is marked `SINK_RELEASES`
 * (see *Buffer lending*) when every stage passes releases on and the sink releases records.
 */
export function chainWritable<In>(
  stages: readonly TransformStream<unknown, unknown>[],
  sink: WritableStream<unknown>,
  stage = 'chain',
): WritableStream<In> & Reporter {
  // A lone sink is returned as it is, with its own report.
  if (stages.length === 0) return sink as WritableStream<In> & Reporter;
  const report = () =>
    mergeReports(
      stage,
      [...stages, sink].map((stream) => reportOf(stream)),
    );
  let readable = stages[0]!.readable;
  const links: Promise<void>[] = [];
  for (const next of stages.slice(1)) {
    links.push(readable.pipeTo(next.writable));
    readable = next.readable;
  }
  links.push(readable.pipeTo(sink));
  const done = Promise.all(links).then(() => undefined);
  let failure: unknown;
  done.catch((error: unknown) => (failure ??= error));
  // `done` rejects at the first failed link, before the sink's abort (removing its temporaries)
  // has finished: aborting waits for every link to settle.
  const settled = Promise.allSettled(links);
  const writer = stages[0]!.writable.getWriter();
  writer.closed.catch(() => undefined);
  const fail = async (error: unknown): Promise<never> => {
    await writer.abort(error).catch(() => undefined);
    // `done` first: its rejection sets `failure`, the cause, which the closed stage's own error hides.
    await done.catch(() => undefined);
    await settled;
    throw asError(failure ?? error);
  };
  const stream = new WritableStream<In>({
    async write(chunk) {
      try {
        await writer.ready;
        if (failure !== undefined) throw asError(failure);
        writer.write(chunk).catch(() => undefined);
      } catch (error) {
        await fail(error);
      }
    },
    async close() {
      try {
        await writer.close();
        await done;
      } catch (error) {
        await fail(error);
      }
    },
    async abort(reason) {
      await writer.abort(reason).catch(() => undefined);
      await settled;
    },
  });
  return attachReport(releasesThrough(stages, sink) ? markLending(stream, SINK_RELEASES) : stream, report);
}

/** Streams reject with any value; rethrow errors as they are and wrap the rest. */
function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}

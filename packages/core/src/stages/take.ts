import { attachReport } from '../contract/plugin-contract.js';
import type { Reporter } from '../contract/plugin-contract.js';
import { TfpipeError } from '../errors/tfpipe-error.js';

/**
 * Passes the first `count` rows and then ends the stream, which cancels everything upstream: the
 * source stops reading and releases its files. For a quick sample or a dry run.
 *
 * @param count - how many rows to pass, a non-negative integer.
 */
export function take<Row>(count: number): TransformStream<Row, Row> & Reporter {
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new TfpipeError(
      'INVALID_OPTION',
      `take(count): count must be a non-negative integer, got ${String(count)}`,
      {
        stage: 'take',
        fatal: true,
      },
    );
  }
  let records = 0;
  const stream = new TransformStream<Row, Row>({
    start(controller) {
      if (count === 0) controller.terminate();
    },
    transform(row, controller) {
      records++;
      controller.enqueue(row);
      if (records >= count) controller.terminate();
    },
  });
  return attachReport(stream, () => ({ stage: 'take', records }));
}

import { attachReport } from '../contract/plugin-contract.js';
import type { Reporter } from '../contract/plugin-contract.js';
import { TfpipeError } from '../errors/tfpipe-error.js';

/**
 * Keeps the rows for which `predicate` returns true (rows keep their position). Its report counts
 * the rows kept (`records`) and dropped (`details.filterRowsDropped`).
 *
 * @param predicate - called with each row and its 0-based index among the rows this stage saw.
 */
export function filterRows<Row>(
  predicate: (row: Row, index: number) => boolean,
): TransformStream<Row, Row> & Reporter {
  if (typeof predicate !== 'function') {
    throw new TfpipeError('INVALID_OPTION', 'filterRows(predicate): predicate must be a function', {
      stage: 'filterRows',
      fatal: true,
    });
  }
  let index = 0;
  let kept = 0;
  const stream = new TransformStream<Row, Row>({
    transform(row, controller) {
      if (predicate(row, index++)) {
        kept++;
        controller.enqueue(row);
      }
    },
  });
  return attachReport(stream, () => ({
    stage: 'filterRows',
    records: kept,
    details: { filterRowsDropped: index - kept },
  }));
}

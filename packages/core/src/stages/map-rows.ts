import { attachReport, positionOf, withPosition } from '../contract/plugin-contract.js';
import type { Reporter } from '../contract/plugin-contract.js';
import { TfpipeError } from '../errors/tfpipe-error.js';

/**
 * Replaces each row by `transform(row, index)`, e.g. to derive a field from others. A new object
 * result inherits the input row's position (so later errors still point into the input file);
 * `undefined` drops the row.
 *
 * @param transform - called with each row and its 0-based index among the rows this stage saw.
 */
export function mapRows<In, Out>(
  transform: (row: In, index: number) => Out | undefined,
): TransformStream<In, Out> & Reporter {
  if (typeof transform !== 'function') {
    throw new TfpipeError('INVALID_OPTION', 'mapRows(transform): transform must be a function', {
      stage: 'mapRows',
      fatal: true,
    });
  }
  let index = 0;
  let records = 0;
  const stream = new TransformStream<In, Out>({
    transform(row, controller) {
      const out = transform(row, index++);
      if (out === undefined) return;
      if (
        typeof out === 'object' &&
        out !== null &&
        (out as unknown) !== row &&
        positionOf(out) === undefined
      ) {
        const position = positionOf(row);
        if (position !== undefined && Object.isExtensible(out)) withPosition(out, position);
      }
      records++;
      controller.enqueue(out);
    },
  });
  return attachReport(stream, () => ({ stage: 'mapRows', records }));
}

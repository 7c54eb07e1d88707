import { attachReport } from '../../contract/plugin-contract.js';
import type { Reporter } from '../../contract/plugin-contract.js';
import { TfpipeError } from '../../errors/tfpipe-error.js';
import { seededRandom } from './seeded-random.js';

/** Options of {@link sampleRows}: give `count` or `fraction`. */
export interface SampleRowsOptions {
  /**
   * Keep a uniform random sample of exactly this many rows (all of them if fewer), chosen by
   * reservoir sampling (Algorithm R) and emitted at the end in input order. Memory: `count` rows.
   */
  readonly count?: number;
  /** Keep each row independently with this probability (0 to 1), streaming, in input order. */
  readonly fraction?: number;
  /** The seed: the same seed and input give the same sample. @default 0 */
  readonly seed?: number;
}

/** A seeded random sample of the rows: `{ count }` (reservoir) or `{ fraction }` (Bernoulli). */
export function sampleRows<Row>(options: SampleRowsOptions): TransformStream<Row, Row> & Reporter {
  const { count, fraction } = options;
  if ((count === undefined) === (fraction === undefined))
    throw invalid('give exactly one of count and fraction');
  if (count !== undefined && (!Number.isSafeInteger(count) || count < 0)) {
    throw invalid(`count must be a non-negative integer, got ${String(count)}`);
  }
  if (fraction !== undefined && !(typeof fraction === 'number' && fraction >= 0 && fraction <= 1)) {
    throw invalid(`fraction must be a number from 0 to 1, got ${String(fraction)}`);
  }
  const random = seededRandom(options.seed ?? 0);
  let seen = 0;
  let kept = 0;
  const reservoir: { index: number; row: Row }[] = [];
  const stream = new TransformStream<Row, Row>({
    transform(row, controller) {
      const index = seen++;
      if (fraction !== undefined) {
        if (random.next() < fraction) {
          kept++;
          controller.enqueue(row);
        }
        return;
      }
      if (reservoir.length < count!) reservoir.push({ index, row });
      else {
        const slot = Math.floor(random.next() * (index + 1));
        if (slot < count!) reservoir[slot] = { index, row };
      }
    },
    flush(controller) {
      reservoir.sort((a, b) => a.index - b.index);
      for (const entry of reservoir) {
        kept++;
        controller.enqueue(entry.row);
      }
      reservoir.length = 0;
    },
  });
  return attachReport(stream, () => ({
    stage: 'sampleRows',
    records: kept,
    details: { sampleRowsSeen: seen },
  }));
}

function invalid(detail: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', `sampleRows(): ${detail}`, { stage: 'sampleRows', fatal: true });
}

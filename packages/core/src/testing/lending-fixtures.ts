import {
  lendingSwitch,
  markLending,
  releaseRecord,
  SINK_RELEASES,
  withRelease,
} from '../contract/lending.js';

/** A row of {@link lendingSource}. */
export interface LendingRow {
  /** 0, 1, 2 … in source order. */
  readonly id: number;
}

/**
 * A source of `count` rows `{ id }` that lends them once a run switches lending on: each lent row
 * carries a release hook that records its id, so a test sees which rows were released, in what order.
 */
export function lendingSource(count: number): {
  /** The rows. */
  readonly stream: ReadableStream<LendingRow>;
  /** The ids released so far, in release order. */
  readonly released: number[];
  /** Whether the run switched lending on. */
  readonly switched: () => boolean;
} {
  const released: number[] = [];
  let lending = false;
  let next = 0;
  const stream = new ReadableStream<LendingRow>({
    pull(controller) {
      if (next === count) {
        controller.close();
        return;
      }
      const row = { id: next++ };
      controller.enqueue(lending ? withRelease(row, () => released.push(row.id)) : row);
    },
  });
  return { stream: lendingSwitch(stream, () => (lending = true)), released, switched: () => lending };
}

/**
 * A sink marked as releasing: it releases each row (or each row of a batch) once it has "copied" it,
 * and pushes the ids it saw onto `seen`.
 */
export function releasingSink(seen: number[] = []): WritableStream<LendingRow | LendingRow[]> {
  const sink = new WritableStream<LendingRow | LendingRow[]>({
    write(chunk) {
      for (const row of Array.isArray(chunk) ? chunk : [chunk]) {
        seen.push(row.id);
        releaseRecord(row);
      }
    },
  });
  return markLending(sink, SINK_RELEASES);
}

import { TfpipeError } from '@tfpipe/core';

/**
 * What flows between the operations of a dataset: elements in arrays (a file read's worth of records,
 * a batch). An operation pays its per-call cost once per chunk, not once per element.
 */
export type Chunks<T> = AsyncIterable<readonly T[]>;

/**
 * Where a pass sits: which iteration of the dataset it belongs to (one object per `for await`,
 * `chunks()` or stream read) and the epoch of every `repeat` around it, outermost first. A shuffle
 * seeds each pass from its position, so the order of a seeded pipeline never depends on how far a
 * `prefetch` read ahead or where a `take` stopped.
 */
export interface PassPosition {
  /** The iteration this pass is part of (compared by identity). */
  readonly iteration: object;
  /** The epoch of each enclosing `repeat`, outermost first. */
  readonly epochs: readonly number[];
}

/** The position of a new iteration's pass, before any `repeat`. */
export function firstPass(): PassPosition {
  return { iteration: {}, epochs: [] };
}

/** One pass over a dataset's chunks; each call starts a new pass (a new epoch) at `position`. */
export type OpenChunks<T> = (position: PassPosition) => Chunks<T>;

/** How many elements an operation gathers before it hands a chunk on. */
export const CHUNK_ELEMENTS = 1024;

/** The `INVALID_OPTION` error of a dataset operation, fatal (no skip policy swallows a bad option). */
export function invalidOption(stage: string, detail: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', detail, { stage, fatal: true });
}

/**
 * Checks that `value` is an integer in `[minimum, ∞)` (or `Infinity` where allowed) and returns it.
 * @throws TfpipeError `INVALID_OPTION` naming the option
 */
export function checkCount(
  stage: string,
  name: string,
  value: unknown,
  minimum: number,
  allowInfinity = false,
): number {
  if ((allowInfinity && value === Infinity) || (Number.isSafeInteger(value) && (value as number) >= minimum))
    return value as number;
  throw invalidOption(
    stage,
    `${name} must be an integer ≥ ${minimum}${allowInfinity ? ' or Infinity' : ''}, got ${String(value)}`,
  );
}

/** The chunks of an array, `size` elements each: a dataset of values in memory. */
// eslint-disable-next-line @typescript-eslint/require-await -- values in memory have nothing to wait for
export async function* arrayChunks<T>(values: readonly T[], size = CHUNK_ELEMENTS): Chunks<T> {
  for (let start = 0; start < values.length; start += size) yield values.slice(start, start + size);
}

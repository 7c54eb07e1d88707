import type { TfpipeError } from '@tfpipe/core';

/** A byte range of the file as stored (compressed) that could not be decompressed. */
export interface Damage {
  /** File offset where decompression failed. */
  readonly start: number;
  /** File offset of the end of the input: everything from `start` on is lost. */
  readonly end: number;
}

const damages = new WeakMap<TfpipeError, Damage>();

/** Records the compressed byte range a `DECOMPRESS` error lost, for the reader's report. */
export function markDamage(error: TfpipeError, damage: Damage): TfpipeError {
  damages.set(error, damage);
  return error;
}

/** The compressed byte range {@link markDamage} recorded for `error`, if any. */
export function damageOf(error: TfpipeError): Damage | undefined {
  return damages.get(error);
}

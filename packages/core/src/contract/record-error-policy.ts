import { TfpipeError } from '../errors/tfpipe-error.js';
import type { OnError, RecordErrorOptions } from './plugin-contract.js';

/** How many skipped errors a report keeps in full; the count is always exact. */
export const MAX_KEPT_ERRORS = 100;

/**
 * Applies `onError` uniformly: every source and stage hands its record-level errors here.
 * Under `'fail'` (and for fatal errors, and for anything that is not a TfpipeError) `handle` rethrows;
 * under `'skip'` it counts the error, keeps the first {@link MAX_KEPT_ERRORS} and calls `onSkip`.
 */
export class RecordErrorPolicy {
  /** The policy in force. */
  readonly onError: OnError;
  /** How many records were skipped. */
  skipped = 0;
  /** The first skipped errors. */
  readonly errors: TfpipeError[] = [];
  readonly #onSkip: ((error: TfpipeError) => void) | undefined;

  constructor(options: RecordErrorOptions = {}) {
    const onError = options.onError ?? 'fail';
    if (onError !== 'fail' && onError !== 'skip') {
      throw new TfpipeError(
        'INVALID_OPTION',
        `onError must be 'fail' or 'skip', got ${JSON.stringify(onError)}`,
        {
          fatal: true,
        },
      );
    }
    this.onError = onError;
    this.#onSkip = options.onSkip;
  }

  /** Rethrows `error` unless the policy skips it; returns normally when the record is to be dropped. */
  handle(error: unknown): void {
    if (!TfpipeError.is(error) || error.fatal || this.onError === 'fail') throw error;
    this.skipped++;
    if (this.errors.length < MAX_KEPT_ERRORS) this.errors.push(error);
    this.#onSkip?.(error);
  }
}

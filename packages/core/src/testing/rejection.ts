import { TfpipeError } from '../errors/tfpipe-error.js';

/**
 * The `TfpipeError` a promise rejects with, for tests: `expect((await rejectionOf(run(...))).code)`.
 * @throws Error when the promise resolves, or rejects with anything else (named in the message)
 */
export async function rejectionOf(promise: Promise<unknown>): Promise<TfpipeError> {
  const outcome = await promise.then(
    (result: unknown) => ({ resolved: true as const, result }),
    (error: unknown) => ({ resolved: false as const, error }),
  );
  if (outcome.resolved) throw new Error(`expected a TfpipeError, but the promise resolved`);
  if (!TfpipeError.is(outcome.error)) throw new Error(`expected a TfpipeError, got ${String(outcome.error)}`);
  return outcome.error;
}

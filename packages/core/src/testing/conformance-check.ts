/** One named check of a conformance suite: `run` resolves when the plugin passes, throws when it fails. */
export interface ConformanceCheck {
  /** What the check pins, e.g. `'rows arrive in input order'`. */
  readonly name: string;
  /** Runs the check; rejects with a {@link ConformanceError} saying what the plugin got wrong. */
  readonly run: () => Promise<void>;
}

/** A plugin failed a conformance check. The message says what was expected and what happened. */
export class ConformanceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConformanceError';
  }
}

/** Throws a {@link ConformanceError} unless `condition` holds. */
export function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) throw new ConformanceError(message);
}

/** Resolves after `ms` milliseconds (macrotasks, so a source that runs ahead gets its chance). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Rejects with a {@link ConformanceError} when `promise` takes longer than `ms`. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConformanceError(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Renders a value for a failure message. */
export function show(value: unknown): string {
  try {
    return (
      JSON.stringify(value, (_, inner: unknown) => (typeof inner === 'bigint' ? `${inner}n` : inner)) ??
      String(value)
    );
  } catch {
    return String(value);
  }
}

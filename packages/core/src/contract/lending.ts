/**
 * Buffer lending: a source may lend the memory behind a record's bytes and take it back once the
 * sink has written the record, instead of leaving it to the garbage collector.
 *
 * Why: V8 counts every new `ArrayBuffer` as memory allocated outside its heap, and starts a full
 * collection when enough has been allocated since the last one. A source that hands out a fresh
 * 100 KB buffer per image makes the process collect its whole heap every few hundred images; lent
 * buffers taken back avoid that (bench/README.md, case e).
 *
 * Lending is only safe when nothing can still read a record once the sink has released it, so it
 * is switched on by the run itself ({@link lendIfSafe}, from `pipeline().run()`, `run()` and
 * `definePipeline()`) and only when every part says it may be: the source has a {@link SOURCE_LENDS}
 * switch, every stage is marked {@link STAGE_PASSES_RELEASE} and the sink {@link SINK_RELEASES}. A record
 * read any other way (your own reader, a stage of yours, `tee()`) is never lent.
 */

/**
 * The symbol under which a lent record carries its release hook: `() => void`, called once the
 * record's bytes are no longer needed. Idempotent: a second call does nothing. `Symbol.for`, so
 * copies of core agree.
 */
export const RELEASE_HOOK: unique symbol = Symbol.for('tfpipe.release') as never;

/** On a source stream: the function that switches lending on. Call it before the first read. */
export const SOURCE_LENDS: unique symbol = Symbol.for('tfpipe.lends') as never;

/**
 * On a stage: it keeps no record it has passed on, and a record it makes from another carries the
 * other's release hook (see {@link passRelease}).
 */
export const STAGE_PASSES_RELEASE: unique symbol = Symbol.for('tfpipe.passesRelease') as never;

/** On a sink: it calls a record's release hook once it has copied or written the record's bytes. */
export const SINK_RELEASES: unique symbol = Symbol.for('tfpipe.releases') as never;

/** A record that may carry a release hook. */
export type Releasable<T> = T & { readonly [RELEASE_HOOK]?: () => void };

/**
 * Attaches a release hook to a record (non-enumerable, so it does not show up in `Object.keys`,
 * JSON or spreads) and returns the same object.
 */
export function withRelease<T extends object>(value: T, release: () => void): Releasable<T> {
  Object.defineProperty(value, RELEASE_HOOK, { value: release, enumerable: false, configurable: true });
  return value;
}

/**
 * Calls a record's release hook, if it has one: for sinks, once the record's bytes are copied or
 * written, and for stages that drop a record.
 */
export function releaseRecord(value: unknown): void {
  hookOf(value)?.();
}

/** Gives `to` the release hook of `from`, if it has one (for stages that make a record from another). */
export function passRelease<T extends object>(from: unknown, to: T): Releasable<T> {
  const release = hookOf(from);
  return release === undefined ? to : withRelease(to, release);
}

/** A record's release hook, if it has one. */
function hookOf(value: unknown): (() => void) | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const release = (value as { [RELEASE_HOOK]?: unknown })[RELEASE_HOOK];
  return typeof release === 'function' ? (release as () => void) : undefined;
}

/** Marks a stream with one of the lending markers ({@link STAGE_PASSES_RELEASE}, {@link SINK_RELEASES}). */
export function markLending<T extends object>(
  stream: T,
  marker: typeof STAGE_PASSES_RELEASE | typeof SINK_RELEASES,
): T {
  Object.defineProperty(stream, marker, { value: true, enumerable: false });
  return stream;
}

/** Gives a source stream its {@link SOURCE_LENDS} switch. */
export function lendingSwitch<T extends object>(stream: T, lend: () => void): T {
  Object.defineProperty(stream, SOURCE_LENDS, { value: lend, enumerable: false });
  return stream;
}

/**
 * Whether records written into `stages` and on to `sink` are released with nothing keeping them:
 * every stage is {@link STAGE_PASSES_RELEASE} and the sink {@link SINK_RELEASES}. A stream that wraps such a
 * chain (core's `chainWritable`) is marked {@link SINK_RELEASES} itself.
 */
export function releasesThrough(
  stages: readonly TransformStream<unknown, unknown>[],
  sink: WritableStream<unknown>,
): boolean {
  if ((sink as { [SINK_RELEASES]?: unknown })[SINK_RELEASES] !== true) return false;
  return stages.every(
    (stage) => (stage as { [STAGE_PASSES_RELEASE]?: unknown })[STAGE_PASSES_RELEASE] === true,
  );
}

/**
 * Switches lending on for a run when every part allows it: the source has a {@link SOURCE_LENDS}
 * switch, and the stages and sink release what they get ({@link releasesThrough}).
 * @returns whether it did
 */
export function lendIfSafe(
  source: ReadableStream<unknown>,
  stages: readonly TransformStream<unknown, unknown>[],
  sink: WritableStream<unknown>,
): boolean {
  const lend = (source as { [SOURCE_LENDS]?: unknown })[SOURCE_LENDS];
  if (typeof lend !== 'function' || !releasesThrough(stages, sink)) return false;
  (lend as () => void)();
  return true;
}

/**
 * @module @tfpipe/node-utils/options
 * The words every tfpipe plugin's option schema is written in (zod), so that the same kind of
 * option is refused with the same message by every plugin, in code and in a pipeline file.
 * Web-standard: no `node:*` (the browser entries of the plugins use it too). zod is bundled into
 * this entry and re-exported as `z`: the plugins and the pipeline build their schemas with this
 * one copy, which a process loads as one module instead of zod's ~95. `z` holds the builders
 * listed in `./zod.ts` (and every zod type); the bundle carries only those.
 */
import * as z from './zod.js';

export { z };

/** A string of at least one character: `expected a non-empty string`. */
export function optionName() {
  return z.string({ error: 'expected a string' }).min(1, { error: 'expected a non-empty string' });
}

/** A list of non-empty strings: `expected a list of WHAT`. */
export function optionNames(what: string) {
  return z.array(optionName(), { error: `expected a list of ${what}` });
}

/** A list of at least one path or glob: `expected at least one path`. */
export function optionPaths() {
  return optionNames('paths').min(1, { error: 'expected at least one path' });
}

/** `true` or `false`. */
export function optionFlag() {
  return z.boolean({ error: 'expected true or false' });
}

/**
 * A whole number from `minimum` to `maximum` (both included).
 * @param maximum - @default Number.MAX_SAFE_INTEGER (then the message says `≥ minimum`)
 */
export function optionWholeNumber(minimum: number, maximum = Number.MAX_SAFE_INTEGER) {
  const error =
    maximum === Number.MAX_SAFE_INTEGER
      ? `expected a whole number ≥ ${minimum}`
      : `expected a whole number from ${minimum} to ${maximum}`;
  return z.int({ error }).min(minimum, { error }).max(maximum, { error });
}

/** One of `values`: `expected "a", "b" or "c"`. */
export function optionOneOf<const T extends readonly [string, ...string[]]>(values: T) {
  const quoted = values.map((value) => JSON.stringify(value));
  const listed = quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)!}`;
  return z.enum(values, { error: `expected ${listed}` });
}

/** A function (a callback only code can give). */
export function optionFunction<T extends (...args: never[]) => unknown>() {
  return z.custom<T>((value) => typeof value === 'function', { error: 'expected a function' });
}

/**
 * The record-error policy every source and sink takes from code: `onError` (`"fail"` or `"skip"`)
 * and the `onSkip` callback that receives each skipped record's error.
 */
export function optionErrorPolicy<E>() {
  return {
    onError: optionOneOf(['fail', 'skip']),
    onSkip: optionFunction<(error: E) => void>(),
  };
}

/** The first item of `items` that is there twice, or undefined. */
export function repeatedItem<T>(items: readonly T[]): T | undefined {
  const index = items.findIndex((item, at) => items.indexOf(item) !== at);
  return index < 0 ? undefined : items[index];
}

/**
 * The issue at `key` for a list option that holds an item twice (`expected each name once, "a" is
 * there twice`), or none.
 * @param what - what one item is called in the message. @default 'name'
 */
export function namedOnce(items: unknown, key: string, what = 'name'): OptionRuleIssue[] {
  const twice: unknown = Array.isArray(items) ? repeatedItem(items as unknown[]) : undefined;
  if (twice === undefined) return [];
  return [{ path: [key], message: `expected each ${what} once, ${JSON.stringify(twice)} is there twice` }];
}

/** A problem that involves several keys, at `path` (a key) or at the options themselves. */
export interface OptionRuleIssue {
  /** The key the problem is reported at. @default the options object */
  readonly path?: readonly string[];
  /** What was expected: `expected exactly one of path, paths`. */
  readonly message: string;
}

/**
 * An options object: every key of `shape` optional, unknown keys refused (`unknown option`), then
 * `rules` over the whole object (which keys go together) once each key is valid.
 */
export function optionsObject<S extends Record<string, z.ZodType>>(
  shape: S,
  rules: (options: Record<string, unknown>) => readonly OptionRuleIssue[] = () => [],
) {
  const optional = Object.fromEntries(Object.entries(shape).map(([key, type]) => [key, type.optional()]));
  return z.strictObject(optional as { [K in keyof S]: z.ZodOptional<S[K]> }).check((context) => {
    const value = context.value as Record<string, unknown>;
    for (const issue of rules(value)) {
      const path = [...(issue.path ?? [])];
      const input = path.length === 0 ? value : value[path[0]!];
      context.issues.push({ code: 'custom', input, path, message: issue.message });
    }
  });
}

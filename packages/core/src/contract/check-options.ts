/**
 * One options check for both ways a plugin is used: a factory called in code and a pipeline file.
 * The plugin describes its options once, as a Standard Schema; the factory checks with
 * {@link checkOptions} and the plugin definition passes the same schema, wrapped by
 * {@link optionsSchema}, so that a pipeline host raises the very same error ({@link optionsError}).
 */
import { TfpipeError } from '../errors/tfpipe-error.js';
import type { StandardSchemaV1 } from './plugin-definition.js';

type Path = readonly (PropertyKey | StandardSchemaV1.PathSegment)[];

/** `columns.rename`, `header[1]`, `sink.options.shards`: a path into options as a user writes it. */
export function formatOptionPath(path: Path): string {
  let text = '';
  for (const segment of path) {
    const key = typeof segment === 'object' ? segment.key : segment;
    if (typeof key === 'number') text += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) text += text === '' ? key : `.${key}`;
    else text += `[${JSON.stringify(String(key))}]`;
  }
  return text;
}

/** The value at `path` inside `root`, or undefined where the path leaves the objects. */
export function valueAtPath(root: unknown, path: Path): unknown {
  let value = root;
  for (const segment of path) {
    const key = typeof segment === 'object' ? segment.key : segment;
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol') return 'a symbol';
  // A stream or another class instance: its name says more than its JSON (`{}`).
  const prototype: unknown =
    typeof value === 'object' && value !== null ? Object.getPrototypeOf(value) : null;
  if (prototype !== null && prototype !== Object.prototype && !Array.isArray(value)) {
    return `a ${(value as { constructor?: { name?: string } }).constructor?.name ?? 'object'}`;
  }
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/**
 * The first issue of an options check as one fatal `INVALID_OPTION` error naming the option:
 * `csvSource option delimiter: expected one character other than a newline, got "\n"`, or
 * `csvSource option delimitr: unknown option`. More issues are counted, not listed.
 */
export function optionsError(
  stage: string,
  issues: readonly StandardSchemaV1.Issue[],
  options: unknown,
): TfpipeError {
  const [issue] = issues;
  const more =
    issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  const path = issue?.path ?? [];
  const unknownKeys = /^Unrecognized keys?: (.+)$/.exec(issue?.message ?? '');
  let detail: string;
  if (unknownKeys !== null) {
    const keys = unknownKeys[1]!.split(', ').map((key) => key.replace(/^"|"$/g, ''));
    const also = keys.length > 1 ? ` (also ${keys.slice(1).join(', ')})` : '';
    detail = `${stage} option ${formatOptionPath([...path, keys[0]!])}: unknown option${also}`;
  } else {
    const message = (issue?.message ?? 'invalid').replace(/^Invalid input: /, '');
    const where = path.length === 0 ? `${stage} options` : `${stage} option ${formatOptionPath(path)}`;
    const value = path.length === 0 ? '' : `, got ${shown(valueAtPath(options, path))}`;
    detail = `${where}: ${message}${value}`;
  }
  return new TfpipeError('INVALID_OPTION', `${detail}${more}`, { stage, fatal: true });
}

/**
 * Checks `options` with a schema that validates synchronously (zod, valibot and ArkType schemas
 * without async refinements do) and returns its output.
 * @throws TfpipeError `INVALID_OPTION` ({@link optionsError}) for the first problem
 */
export function checkOptions<Output>(
  schema: StandardSchemaV1<unknown, Output>,
  options: unknown,
  stage: string,
): Output {
  const result = schema['~standard'].validate(options);
  if (result instanceof Promise)
    throw new TypeError(`${stage}: its options schema must validate synchronously`);
  if (result.issues !== undefined) throw optionsError(stage, result.issues, options);
  return result.value;
}

/**
 * The JSON Schema converter of the Standard JSON Schema interface (https://standardschema.dev),
 * which zod ≥ 4.2 schemas carry as `~standard.jsonSchema`: what a pipeline host puts in the JSON
 * Schema of pipeline files for a plugin's options.
 */
export interface OptionsJsonSchemaConverter {
  /** The JSON Schema of the options as a user writes them. May throw when a target is not supported. */
  readonly input: (options: { readonly target: string }) => Record<string, unknown>;
  /** The JSON Schema of the checked options. May throw when a target is not supported. */
  readonly output: (options: { readonly target: string }) => Record<string, unknown>;
}

/** A plugin's options schema that names the stage its errors come from (see {@link optionsSchema}). */
export interface StagedOptionsSchema<Output> extends StandardSchemaV1<unknown, Output> {
  /** The stage named in option errors, as the plugin's own factory names it (`'csvSource'`). */
  readonly stage: string;
  /**
   * The JSON Schema of the options when the schema library makes one (zod does), else undefined:
   * a pipeline host builds the JSON Schema of pipeline files from it, so editors check a plugin's
   * options with the very definitions its code checks with.
   */
  jsonSchema(): Record<string, unknown> | undefined;
}

/**
 * A plugin definition's `options`: the schema `create` builds on first use (a schema library's
 * import and schema construction cost nothing until a pipeline names the plugin), tagged with the
 * stage its factory names in errors. A host that finds `stage` raises {@link optionsError} for it,
 * so an option is refused with the same code and message in a pipeline file as in code.
 */
export function optionsSchema<Output>(
  stage: string,
  create: () => StandardSchemaV1<unknown, Output>,
): StagedOptionsSchema<Output> {
  let schema: StandardSchemaV1<unknown, Output> | undefined;
  const standard = (): StandardSchemaV1.Props<unknown, Output> => (schema ??= create())['~standard'];
  return {
    stage,
    '~standard': {
      version: 1,
      get vendor() {
        return standard().vendor;
      },
      validate: (value) => standard().validate(value),
    },
    jsonSchema() {
      const converter = (standard() as { jsonSchema?: OptionsJsonSchemaConverter }).jsonSchema;
      return converter?.input({ target: 'draft-07' });
    },
  };
}

type Settled<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer Item)[]
    ? readonly Settled<Item>[]
    : T extends ReadableStream
      ? T
      : T extends object
        ? { readonly [K in keyof T]?: Settled<Exclude<T[K], undefined>> }
        : T;

/**
 * `true` when the options a schema lets through (`Checked`, e.g. `z.output<typeof schema>`) and a
 * plugin's documented options type have the same keys and every checked value fits the documented
 * type; otherwise a sentence naming the disagreement. A plugin pins it where it must be `true`
 * (`type Agree = RequireTrue<OptionsFit<z.output<typeof schema>, MyOptions>>`), so the documented
 * type and the schema cannot drift apart without a compile error.
 */
export type OptionsFit<Checked, Documented> = [keyof Checked] extends [keyof Documented]
  ? [keyof Documented] extends [keyof Checked]
    ? Settled<Checked> extends Settled<Documented>
      ? true
      : 'the schema lets through values the documented type does not allow'
    : 'the documented type has options the schema does not know'
  : 'the schema has options the documented type does not have';

/** Compiles only when `Check` is `true`: the place a plugin pins {@link OptionsFit}. */
export type RequireTrue<Check extends true> = Check;

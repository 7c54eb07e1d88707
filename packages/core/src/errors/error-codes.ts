/**
 * Every code a tfpipe error can carry, as the keys of an interface so that a plugin can add its own by
 * declaration merging, next to a runtime {@link registerErrorCodes} call:
 *
 * ```ts
 * declare module '@tfpipe/core' {
 *   interface TfpipeErrorCodes {
 *     GEO_PROJECTION: true;
 *   }
 * }
 * registerErrorCodes(['GEO_PROJECTION']);
 * ```
 *
 * Adding a code is a minor change; removing or renaming one is breaking.
 */
export interface TfpipeErrorCodes {
  // options and configuration: always fatal
  INVALID_OPTION: true;
  CONFIG_PARSE: true;
  CONFIG_SCHEMA: true;
  UNKNOWN_PLUGIN: true;
  // the Example model and the builder
  FEATURE_TYPE: true;
  FEATURE_MISSING: true;
  UNSAFE_INTEGER: true;
  INT64_RANGE: true;
  // protobuf and JSON forms
  PROTO_DECODE: true;
  JSON_PARSE: true;
  JSON_FORM: true;
  // TFRecord framing
  RECORD_CRC: true;
  RECORD_TRUNCATED: true;
  RECORD_TOO_LARGE: true;
  DECOMPRESS: true;
  // CSV
  CSV_PARSE: true;
  CSV_ROW_LENGTH: true;
  CSV_ENCODING: true;
  CSV_HEADER: true;
  CSV_EMPTY: true;
  CSV_VALUE: true;
  // images
  IMAGE_DECODE: true;
  IMAGE_UNSUPPORTED: true;
  IMAGE_TOO_LARGE: true;
  IMAGE_ANNOTATION: true;
  IMAGE_BOX: true;
  PATH_ESCAPE: true;
  // parquet
  PARQUET_FORMAT: true;
  PARQUET_UNSUPPORTED: true;
  PARQUET_COLUMN: true;
  PARQUET_SCHEMA: true;
  // files and the run
  INPUT_NOT_FOUND: true;
  INPUT_NOT_FILE: true;
  INPUT_CHANGED: true;
  OUTPUT_EXISTS: true;
  OUTPUT_UNWRITABLE: true;
  DISK_FULL: true;
  IO: true;
  ABORTED: true;
  SPLIT: true;
  // scale-out plans (tfpipe plan / work / finalize)
  PLAN_INVALID: true;
  PLAN_INDEX: true;
  SHARD_INCOMPLETE: true;
  // the scale-out queue (tfpipe queue / worker)
  QUEUE_UNREACHABLE: true;
  INTERNAL: true;
}

/** A code a `TfpipeError` carries: tfpipe's own, or one a plugin registered. */
export type TfpipeErrorCode = Extract<keyof TfpipeErrorCodes, string>;

/** The codes tfpipe itself defines, for exhaustive checks and docs; {@link errorCodes} adds plugins' codes. */
export const TFPIPE_ERROR_CODES: readonly TfpipeErrorCode[] = Object.freeze([
  'INVALID_OPTION',
  'CONFIG_PARSE',
  'CONFIG_SCHEMA',
  'UNKNOWN_PLUGIN',
  'FEATURE_TYPE',
  'FEATURE_MISSING',
  'UNSAFE_INTEGER',
  'INT64_RANGE',
  'PROTO_DECODE',
  'JSON_PARSE',
  'JSON_FORM',
  'RECORD_CRC',
  'RECORD_TRUNCATED',
  'RECORD_TOO_LARGE',
  'DECOMPRESS',
  'CSV_PARSE',
  'CSV_ROW_LENGTH',
  'CSV_ENCODING',
  'CSV_HEADER',
  'CSV_EMPTY',
  'CSV_VALUE',
  'IMAGE_DECODE',
  'IMAGE_UNSUPPORTED',
  'IMAGE_TOO_LARGE',
  'IMAGE_ANNOTATION',
  'IMAGE_BOX',
  'PATH_ESCAPE',
  'PARQUET_FORMAT',
  'PARQUET_UNSUPPORTED',
  'PARQUET_COLUMN',
  'PARQUET_SCHEMA',
  'INPUT_NOT_FOUND',
  'INPUT_NOT_FILE',
  'INPUT_CHANGED',
  'OUTPUT_EXISTS',
  'OUTPUT_UNWRITABLE',
  'DISK_FULL',
  'IO',
  'ABORTED',
  'SPLIT',
  'PLAN_INVALID',
  'PLAN_INDEX',
  'SHARD_INCOMPLETE',
  'QUEUE_UNREACHABLE',
  'INTERNAL',
]);

/** A code's shape: upper-case words joined by `_`, as tfpipe's own (`GEO_PROJECTION`). */
const CODE_SHAPE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

/**
 * Every known code, kept on `globalThis` under a `Symbol.for` key: two copies of `@tfpipe/core` in one
 * process (a plugin bundling its own) share it, as `TfpipeError.is` recognises both copies' errors.
 */
const registry: Set<string> = ((globalThis as Record<symbol, Set<string> | undefined>)[
  Symbol.for('tfpipe.errorCodes')
] ??= new Set<string>());
for (const code of TFPIPE_ERROR_CODES) registry.add(code);

/**
 * Adds a plugin's codes, so that `new TfpipeError(code, …)` accepts them at run time (declare them in
 * {@link TfpipeErrorCodes} too, for the types). Call it once when the plugin's module loads. Registering a
 * code again, or one of tfpipe's own, is harmless: plugins that share a code share its meaning.
 * @throws TypeError for a code that is not upper-case words joined by `_`
 */
export function registerErrorCodes(codes: readonly string[]): void {
  for (const code of codes) {
    if (typeof code !== 'string' || !CODE_SHAPE.test(code)) {
      throw new TypeError(
        `error code ${JSON.stringify(code)} must be upper-case words joined by _ (e.g. GEO_PROJECTION)`,
      );
    }
  }
  for (const code of codes) registry.add(code);
}

/** True when `value` is tfpipe's own code or one a plugin registered. */
export function isErrorCode(value: unknown): value is TfpipeErrorCode {
  return typeof value === 'string' && registry.has(value);
}

/** Every known code: tfpipe's own in their documented order, then plugins' in registration order. */
export function errorCodes(): readonly TfpipeErrorCode[] {
  return [...registry] as TfpipeErrorCode[];
}

/**
 * Refuses a code nobody registered: a plugin that forgot {@link registerErrorCodes} learns it the first
 * time it builds the error (in its own tests), not from a user's log.
 * @throws TypeError naming the code
 */
export function checkErrorCode(code: string): void {
  if (registry.has(code)) return;
  throw new TypeError(
    `unknown TfpipeError code ${JSON.stringify(code)}: register it with registerErrorCodes([...])`,
  );
}

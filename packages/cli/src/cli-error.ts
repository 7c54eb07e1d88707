import { TfpipeError } from '@tfpipe/core';

/**
 * Option names that library messages mention, and where a CLI user sets each: a flag (used when the
 * command has it) or a pipeline-file key (for `tfpipe run`, and for flags a command lacks).
 */
const OPTION_SETTINGS: Readonly<Record<string, { readonly flag?: string; readonly key?: string }>> = {
  overwrite: { flag: 'overwrite' },
  maxRecordBytes: { flag: 'max-record-bytes', key: 'source.options.maxRecordBytes' },
  maxRecordLength: { flag: 'max-record-length', key: 'source.options.maxRecordLength' },
  allowEmpty: { key: 'source.options.allowEmpty' },
  inferRows: { flag: 'infer-rows', key: 'source.options.inferRows' },
  delimiter: { flag: 'delimiter', key: 'source.options.delimiter' },
  maxColumnChunkBytes: { key: 'source.options.maxColumnChunkBytes' },
  maxPixels: { key: 'source.options.maxPixels' },
  unreachableMs: { flag: 'unreachable-ms' },
};

/**
 * `csvSource option maxRecordLength`, `overwrite: true`, `maxRecordBytes`: the option's name, with the
 * factory it belongs to and a `: true` after it; never inside `--overwrite` or `source.options.allowEmpty`.
 */
const MENTION = new RegExp(
  `(?:\\b[a-z][A-Za-z]* option )?(?<![-.\\w])(${Object.keys(OPTION_SETTINGS).join('|')})\\b(: true)?`,
  'g',
);

function rephrase(text: string, flags: ReadonlySet<string>): string {
  return text.replace(MENTION, (whole, option: string, isTrue: string | undefined) => {
    const setting = OPTION_SETTINGS[option]!;
    if (setting.flag !== undefined && flags.has(setting.flag)) return `--${setting.flag}`;
    if (setting.key !== undefined) return `${setting.key}${isTrue ?? ''}`;
    return whole;
  });
}

/**
 * The error as a CLI user reads it: option names in its detail and reason become the command's flags
 * (`pass overwrite: true` → `pass --overwrite`, `maxRecordBytes` → `--max-record-bytes`), or the
 * pipeline-file key where the command has no such flag (`source.options.allowEmpty: true`). The
 * position (file names, fields) is never rewritten. Other errors pass unchanged.
 * @param flags - the command's flag names, without `--`
 */
export function cliError(error: unknown, flags: Iterable<string>): unknown {
  if (!TfpipeError.is(error)) return error;
  const known = new Set(flags);
  const detail = rephrase(error.detail, known);
  const reason = error.reason === undefined ? undefined : rephrase(error.reason, known);
  if (detail === error.detail && reason === error.reason) return error;
  return new TfpipeError(error.code, detail, {
    position: error.position,
    fatal: error.fatal,
    cause: error.cause,
    ...(error.stage === undefined ? {} : { stage: error.stage }),
    ...(reason === undefined ? {} : { reason }),
  });
}

const USAGE_CODES = new Set([
  'INVALID_OPTION',
  'CONFIG_PARSE',
  'CONFIG_SCHEMA',
  'UNKNOWN_PLUGIN',
  'PLAN_INVALID',
  'PLAN_INDEX',
]);

/** Errors of the command line or the config file (exit 2), as opposed to errors of the data (exit 1). */
function isUsageError(error: unknown): boolean {
  if (!TfpipeError.is(error)) return false;
  return USAGE_CODES.has(error.code) || (error.code === 'SPLIT' && error.fatal);
}

/** Library option wording → the CLI flags that set those options. */
const FLAG_WORDING: readonly [RegExp, string][] = [
  [/\boverwrite: true\b/g, '--overwrite'],
  [/\bshards: (\d+)/g, '--shards $1'],
  [/\bmaxRecords or maxBytes\b/g, '--max-records or --max-bytes'],
];

function describe(error: unknown): string {
  if (TfpipeError.is(error)) {
    const message = FLAG_WORDING.reduce(
      (text, [pattern, flag]) => text.replace(pattern, flag),
      error.message,
    );
    return `${message} [${error.code}]`;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * What `main` prints and exits with for a command's failure: the error in CLI wording ({@link cliError},
 * then library option phrases as flags) with its code, and exit 2 for a usage error, 1 for a data error.
 * @param flags - the command's flag names, without `--`
 */
export function failureOf(error: unknown, flags: Iterable<string>): { message: string; exitCode: number } {
  const phrased = cliError(error, flags);
  return { message: describe(phrased), exitCode: isUsageError(phrased) ? 2 : 1 };
}

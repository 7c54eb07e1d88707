import { checkErrorCode, type TfpipeErrorCode } from './error-codes.js';

export { TFPIPE_ERROR_CODES } from './error-codes.js';
export type { TfpipeErrorCode } from './error-codes.js';

/**
 * Where in the input an error happened. Fields that do not apply are absent.
 * All indexes are 0-based except `line` and `column`, which are 1-based as editors show them.
 */
export interface Position {
  /** The file (path or name) being read or written. */
  readonly file?: string;
  /** 0-based index of the record within the file (TFRecord record, CSV data row, Parquet row). */
  readonly recordIndex?: number;
  /** 1-based line number (CSV, JSON Lines, config files). */
  readonly line?: number;
  /** 1-based column: a character column in text, or a CSV column number. */
  readonly column?: number;
  /** 0-based row index within a table (CSV data rows, Parquet rows across the file). */
  readonly row?: number;
  /** Parquet row group index. */
  readonly rowGroup?: number;
  /** Byte offset in the (decompressed) file where the failing record or value starts. */
  readonly byteOffset?: number;
  /** The feature, column or config key concerned. */
  readonly field?: string;
  /** An annotation id (COCO annotation/image id, VOC file). */
  readonly annotation?: string;
}

/** What `new TfpipeError` takes. */
export interface TfpipeErrorOptions {
  /** The stage that raised it, e.g. `'tfrecordSource'`, `'csvSource'`, `'buildExamples'`. */
  readonly stage?: string;
  /** Where it happened. */
  readonly position?: Position;
  /** The underlying error. */
  readonly cause?: unknown;
  /** True for errors no `onError: 'skip'` policy may swallow (bad options, disk full, unwritable output). */
  readonly fatal?: boolean;
  /** Why, appended after the position: `corrupted record at byte 12 of a.tfrecord: data CRC mismatch`. */
  readonly reason?: string;
}

const MARKER = Symbol.for('tfpipe.error');

/**
 * The one error type of tfpipe. It carries a `code` (tfpipe's own or a plugin's registered one, see
 * `registerErrorCodes`), the `stage`, the exact
 * `position` and the `cause`; its message is built from the same facts, e.g.
 * `corrupted record at byte 1234 (record 17) of train-00001-of-00004: data CRC mismatch`.
 *
 * Use {@link TfpipeError.is} rather than `instanceof`: it also recognises errors from a second copy
 * of the package.
 */
export class TfpipeError extends Error {
  /** What went wrong: tfpipe's own code or one a plugin registered. */
  readonly code: TfpipeErrorCode;
  /** The stage that raised it. */
  readonly stage: string | undefined;
  /** Where it happened. */
  readonly position: Position;
  /** The error never falls under a skip policy. */
  readonly fatal: boolean;
  /** The problem without the position, as given to the constructor. */
  readonly detail: string;
  /** The reason after the position, if any. */
  readonly reason: string | undefined;
  declare readonly [MARKER]: true;

  constructor(code: TfpipeErrorCode, detail: string, options: TfpipeErrorOptions = {}) {
    checkErrorCode(code);
    const position = options.position ?? {};
    super(
      formatMessage(detail, position, options.reason),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'TfpipeError';
    this.code = code;
    this.stage = options.stage;
    this.position = position;
    this.fatal = options.fatal ?? false;
    this.detail = detail;
    this.reason = options.reason;
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** True when `value` is a TfpipeError from any copy of this package. */
  static is(value: unknown): value is TfpipeError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  /** A copy with more position facts (the caller knows the file, the record index …). */
  withPosition(position: Position): TfpipeError {
    const merged = { ...position, ...this.position };
    return new TfpipeError(this.code, this.detail, {
      position: merged,
      fatal: this.fatal,
      cause: this.cause,
      ...(this.stage === undefined ? {} : { stage: this.stage }),
      ...(this.reason === undefined ? {} : { reason: this.reason }),
    });
  }

  /** A plain object for logs and JSON summaries. */
  toJSON(): { code: TfpipeErrorCode; message: string; stage?: string; position: Position } {
    return this.stage === undefined
      ? { code: this.code, message: this.message, position: this.position }
      : { code: this.code, message: this.message, stage: this.stage, position: this.position };
  }
}

/** `detail` plus where: "bad value at line 3, column 2 of data.csv". */
export function formatPosition(position: Position): string {
  const parts: string[] = [];
  if (position.byteOffset !== undefined) parts.push(`byte ${position.byteOffset}`);
  if (position.recordIndex !== undefined) parts.push(`record ${position.recordIndex}`);
  if (position.rowGroup !== undefined) parts.push(`row group ${position.rowGroup}`);
  if (position.row !== undefined) parts.push(`row ${position.row}`);
  if (position.line !== undefined) parts.push(`line ${position.line}`);
  if (position.column !== undefined) parts.push(`column ${position.column}`);
  if (position.field !== undefined) parts.push(`field "${position.field}"`);
  if (position.annotation !== undefined) parts.push(`annotation ${position.annotation}`);
  let text = parts.length > 0 ? `at ${parts[0]}` : '';
  if (parts.length > 1) text += ` (${parts.slice(1).join(', ')})`;
  if (position.file !== undefined) text += `${text === '' ? 'in' : ' of'} ${position.file}`;
  return text;
}

function formatMessage(detail: string, position: Position, reason: string | undefined): string {
  const where = formatPosition(position);
  const text = where === '' ? detail : `${detail} ${where}`;
  return reason === undefined ? text : `${text}: ${reason}`;
}

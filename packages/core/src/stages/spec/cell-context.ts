import { TfpipeError } from '../../errors/tfpipe-error.js';
import type { TfpipeErrorCode } from '../../errors/tfpipe-error.js';

/** What a coercer needs to know to convert a cell and to say where a bad one came from. */
export interface CellContext {
  /** The stage named in errors (`'buildExamples'`, `'buildSequenceExamples'`). */
  readonly stage: string;
  /** The feature being built. */
  readonly feature: string;
  /** The source field (for a computed feature, the feature name); it goes into `position.field`. */
  readonly field: string;
  /** int64: accept `"true"` / `"false"` strings. */
  readonly booleanStrings: boolean;
}

/** A record-level error about one cell, positioned at its field. The row's position is added later. */
export function cellError(
  code: TfpipeErrorCode,
  detail: string,
  context: CellContext,
  cause?: unknown,
): TfpipeError {
  return new TfpipeError(code, `${detail} (feature "${context.feature}")`, {
    stage: context.stage,
    position: { field: context.field },
    ...(cause === undefined ? {} : { cause }),
  });
}

/** A short, quoted rendering of a bad value for messages. */
export function preview(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Uint8Array) return `Uint8Array(${value.length})`;
  if (Array.isArray(value)) return `array(${value.length})`;
  if (typeof value === 'object' && value !== null) return value.constructor?.name ?? 'object';
  return String(value);
}

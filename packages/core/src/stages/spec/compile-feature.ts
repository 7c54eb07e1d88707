import { TfpipeError } from '../../errors/tfpipe-error.js';
import type { Feature } from '../../model/feature.js';
import type { CellContext } from './cell-context.js';
import { cellError } from './cell-context.js';
import { cellCoercer } from './coerce-cell.js';
import type { CellCoercer } from './coerce-cell.js';
import type { FeatureEntry, FeatureOptions, MissingPolicy, ValueKind } from './example-spec.js';

const KINDS: ReadonlySet<string> = new Set<ValueKind>(['int64', 'float', 'bytes']);
const MISSING: ReadonlySet<string> = new Set<MissingPolicy>(['omit', 'empty', 'default', 'error']);
const KEYS: ReadonlySet<string> = new Set([
  'kind',
  'field',
  'value',
  'split',
  'boolean',
  'missing',
  'default',
]);

/** One spec entry, checked and normalised. */
export interface CompiledEntry {
  readonly name: string;
  readonly kind: ValueKind;
  readonly missing: MissingPolicy;
  readonly options: FeatureOptions;
  readonly context: CellContext;
  /** Reads the cell from the row. */
  readonly read: (row: object) => unknown;
  /** Converts a present cell. */
  readonly coerce: CellCoercer;
}

/**
 * Checks one spec entry (throwing a fatal `INVALID_OPTION` naming the feature and the option) and
 * compiles how its cell is read and converted.
 */
export function compileEntry(
  name: string,
  entry: FeatureEntry<object> | undefined,
  defaultMissing: MissingPolicy,
  stage: string,
): CompiledEntry {
  const options: FeatureOptions =
    typeof entry === 'string' ? { kind: entry } : (entry ?? ({} as FeatureOptions));
  if (typeof entry !== 'string' && (typeof entry !== 'object' || entry === null)) {
    throw invalid(stage, name, `must be 'int64', 'float', 'bytes' or an object with a kind`);
  }
  for (const key of Object.keys(options)) {
    if (!KEYS.has(key)) throw invalid(stage, name, `has an unknown option "${key}"`);
  }
  const { kind, split, missing = defaultMissing } = options;
  const { field, value } = options as { field?: unknown; value?: unknown };
  if (!KINDS.has(kind))
    throw invalid(stage, name, `kind must be 'int64', 'float' or 'bytes', got ${String(kind)}`);
  if (field !== undefined && typeof field !== 'string') throw invalid(stage, name, 'field must be a string');
  if (value !== undefined && typeof value !== 'function')
    throw invalid(stage, name, 'value must be a function');
  if (field !== undefined && value !== undefined)
    throw invalid(stage, name, 'takes field or value, not both');
  if (split !== undefined && (typeof split !== 'string' || split === '')) {
    throw invalid(stage, name, 'split must be a non-empty string');
  }
  if (!MISSING.has(missing)) {
    throw invalid(
      stage,
      name,
      `missing must be 'omit', 'empty', 'default' or 'error', got ${String(missing)}`,
    );
  }
  if (missing === 'default' && options.default === undefined) {
    throw invalid(stage, name, "has missing: 'default' but no default value");
  }
  if (options.boolean !== undefined && kind !== 'int64')
    throw invalid(stage, name, 'boolean applies to int64 only');
  const source = field ?? name;
  const context: CellContext = {
    stage,
    feature: name,
    field: source,
    booleanStrings: options.boolean === true,
  };
  const read =
    typeof value === 'function' ? computed(value as (row: object) => unknown, context) : fieldReader(source);
  return { name, kind, missing, options, context, read, coerce: cellCoercer(kind, split, context) };
}

/** A fatal error about the spec itself. */
export function invalid(stage: string, name: string, detail: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', `feature "${name}" ${detail}`, { stage, fatal: true });
}

/** Compiles the `default` of an entry into the Feature used for missing cells (checked now). */
export function compileDefault(entry: CompiledEntry, convert: (cell: unknown) => Feature): Feature {
  try {
    return convert(entry.options.default);
  } catch (error) {
    const reason = TfpipeError.is(error) ? error.detail : String(error);
    throw invalid(entry.context.stage, entry.name, `has an unusable default: ${reason}`);
  }
}

function fieldReader(field: string): (row: object) => unknown {
  return (row) => (row as Record<string, unknown>)[field];
}

function computed(compute: (row: object) => unknown, context: CellContext): (row: object) => unknown {
  return (row) => {
    try {
      return compute(row);
    } catch (error) {
      if (TfpipeError.is(error)) throw error;
      throw cellError('FEATURE_TYPE', `computing the value failed: ${String(error)}`, context, error);
    }
  };
}

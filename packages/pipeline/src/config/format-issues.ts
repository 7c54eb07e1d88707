import { TfpipeError } from '@tfpipe/core';
import { formatOptionPath, optionsError, valueAtPath } from '@tfpipe/core/plugin';
import type { StagedOptionsSchema, StandardSchemaV1 } from '@tfpipe/core/plugin';

/** `sink.options.shards`, `transforms[0].filter`: a path as a user reads it. */
export function formatPath(path: readonly (PropertyKey | StandardSchemaV1.PathSegment)[]): string {
  return formatOptionPath(path) || '(the file)';
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/**
 * One line for the first schema issue: `sink.options.shards: expected a positive integer, got "8x"`.
 * Unknown keys read `sink.options.shardz: unknown key`. More issues are counted, not listed.
 */
export function schemaError(
  issues: readonly StandardSchemaV1.Issue[],
  root: unknown,
  prefix: readonly PropertyKey[],
  file: string | undefined,
): TfpipeError {
  const [issue] = issues;
  const more =
    issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  const path = [...prefix, ...(issue?.path ?? [])];
  let detail: string;
  const unknownKeys = /^Unrecognized keys?: (.+)$/.exec(issue?.message ?? '');
  if (unknownKeys !== null) {
    const keys = unknownKeys[1]!.split(', ').map((key) => key.replace(/^"|"$/g, ''));
    detail = `${formatPath([...path, keys[0]!])}: unknown key${keys.length > 1 ? ` (also ${keys.slice(1).join(', ')})` : ''}`;
  } else {
    const value = valueAtPath(root, path);
    const message = (issue?.message ?? 'invalid').replace(/^Invalid input: /, '');
    detail = `${formatPath(path)}: ${message}, got ${shown(value)}`;
  }
  return new TfpipeError('CONFIG_SCHEMA', `${detail}${more}`, {
    stage: 'config',
    fatal: true,
    position: file === undefined ? {} : { file },
  });
}

/**
 * Validates `value` with a Standard Schema; throws {@link schemaError} on issues. A plugin's schema
 * made by `optionsSchema` names its stage: its issues are then the plugin's own `INVALID_OPTION`
 * error (`optionsError`), the same code and message its factory raises in code, placed in `file`.
 */
export async function validateWith<Output>(
  schema: StandardSchemaV1<unknown, Output>,
  value: unknown,
  prefix: readonly PropertyKey[],
  root: unknown,
  file: string | undefined,
): Promise<Output> {
  const result = await schema['~standard'].validate(value);
  if (result.issues === undefined) return result.value;
  const stage = (schema as Partial<StagedOptionsSchema<Output>>).stage;
  if (typeof stage !== 'string') throw schemaError(result.issues, root, prefix, file);
  const error = optionsError(stage, result.issues, value);
  throw file === undefined ? error : error.withPosition({ file });
}

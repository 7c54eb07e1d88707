import { TfpipeError } from '@tfpipe/core';

type Values = Readonly<Record<string, string | boolean | string[] | boolean[] | undefined>>;

function invalid(message: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', message, { stage: 'cli', fatal: true });
}

/** A string flag's value, if given. */
export function stringFlag(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A boolean flag. */
export function booleanFlag(values: Values, name: string): boolean {
  return values[name] === true;
}

/** A flag that must be a whole number of at least `minimum`. */
export function integerFlag(values: Values, name: string, minimum = 1): number | undefined {
  const text = stringFlag(values, name);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < minimum) {
    throw invalid(`--${name}: expected a whole number of at least ${minimum}, got "${text}"`);
  }
  return Number(text);
}

/** A byte size: `1048576`, `64k`, `256M`, `1G` (binary units). */
export function byteSizeFlag(values: Values, name: string): number | undefined {
  const text = stringFlag(values, name);
  if (text === undefined) return undefined;
  const match = /^(\d+)([kmg]i?b?)?$/i.exec(text);
  if (match === null)
    throw invalid(`--${name}: expected a size like 1048576, 64K, 256M or 1G, got "${text}"`);
  const unit = (match[2] ?? '').charAt(0).toLowerCase();
  const scale = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  const bytes = Number(match[1]) * scale;
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw invalid(`--${name}: "${text}" is not a usable size`);
  return bytes;
}

/** A flag whose value must be one of `choices`. */
export function choiceFlag<T extends string>(
  values: Values,
  name: string,
  choices: readonly T[],
): T | undefined {
  const text = stringFlag(values, name);
  if (text === undefined) return undefined;
  if (!(choices as readonly string[]).includes(text)) {
    throw invalid(`--${name}: expected one of ${choices.join(', ')}, got "${text}"`);
  }
  return text as T;
}

/** At least `minimum` positional arguments (default one), and at most `maximum`. */
export function requirePositionals(
  positionals: readonly string[],
  what: string,
  minimum = 1,
  maximum = Infinity,
): readonly string[] {
  if (positionals.length < minimum) throw invalid(`missing ${what}`);
  if (positionals.length > maximum) throw invalid(`unexpected argument "${positionals[maximum]}"`);
  return positionals;
}

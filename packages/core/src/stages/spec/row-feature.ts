import type { Feature } from '../../model/feature.js';

/** True for a `Feature` object (`{ kind, value }` with a known kind). */
export function isFeatureValue(value: unknown): value is Feature {
  if (typeof value !== 'object' || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  return (kind === 'bytes' || kind === 'float' || kind === 'int64' || kind === 'none') && 'value' in value;
}

import { decodeExample, decodeSequenceExample, type Example, type SequenceExample } from '@tfpipe/core';
import { featureLine } from './feature-text.js';

/** A payload decoded for viewing: an Example, a SequenceExample, or why it is neither. */
export interface DecodedPayload {
  readonly payload: Example | SequenceExample | undefined;
  readonly decodeError: string | undefined;
}

/**
 * Decodes a record's payload. Both message types parse the same bytes, so a payload with feature lists
 * is taken as a SequenceExample and anything else as an Example. Core's decoded-memory bound applies,
 * so a hostile record is an error message, not a frozen page.
 */
export function decodePayload(bytes: Uint8Array): DecodedPayload {
  try {
    const sequence = decodeSequenceExample(bytes);
    if (Object.keys(sequence.featureLists).length > 0) return { payload: sequence, decodeError: undefined };
    return { payload: decodeExample(bytes), decodeError: undefined };
  } catch (error) {
    return { payload: undefined, decodeError: error instanceof Error ? error.message : String(error) };
  }
}

/** One line for the record table: the first features and their first values. */
export function payloadSummary(decoded: DecodedPayload, limit = 4): string {
  const { payload } = decoded;
  if (payload === undefined) return `not an Example: ${decoded.decodeError ?? ''}`;
  const features = 'features' in payload ? payload.features : payload.context;
  const keys = Object.keys(features);
  const parts = keys.slice(0, limit).map((key) => `${key}=${featureLine(features[key]!, 3)}`);
  if (keys.length > limit) parts.push(`+${keys.length - limit} more`);
  if (!('features' in payload)) parts.push(`${Object.keys(payload.featureLists).length} feature lists`);
  return parts.join('  ');
}

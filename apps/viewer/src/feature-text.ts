import { floatToJson, type Feature } from '@tfpipe/core';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** How many bytes of a bytes value the hex form shows before it elides the rest. @default 64 */
export const HEX_PREVIEW_BYTES = 64;

/** A float as protobuf's text and JSON printers write it (`0.1`, not `0.10000000149011612`). */
export function floatText(value: number): string {
  const printed = floatToJson(value);
  return typeof printed === 'string' ? printed : Object.is(printed, -0) ? '-0' : String(printed);
}

/** Characters of a text value shown before it is elided. @default 2000 */
export const TEXT_PREVIEW_CHARACTERS = 2000;

/** A bytes value as quoted text when it is printable UTF-8, else as hex (elided past `limit` bytes). */
export function bytesText(value: Uint8Array, limit = HEX_PREVIEW_BYTES): string {
  const text = printableUtf8(value);
  if (text === undefined) return hexText(value, limit);
  if (text.length <= TEXT_PREVIEW_CHARACTERS) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, TEXT_PREVIEW_CHARACTERS))} … (${value.length} bytes)`;
}

/** Hex pairs of the first `limit` bytes, with the length of what is left out. */
export function hexText(value: Uint8Array, limit = HEX_PREVIEW_BYTES): string {
  const shown = Array.from(value.subarray(0, limit), (byte) => byte.toString(16).padStart(2, '0'));
  const rest = value.length > limit ? ` … (${value.length} bytes)` : '';
  return `0x${shown.join('')}${rest}`;
}

/** The text of a UTF-8 value without control characters (tab and newline allowed), or `undefined`. */
export function printableUtf8(value: Uint8Array): string | undefined {
  let text: string;
  try {
    text = utf8.decode(value);
  } catch {
    return undefined;
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
  return /[\u0000-\u0008\u000b-\u001f\u007f]/.test(text) ? undefined : text;
}

/** One value of a feature as text: exact int64, protobuf-printed float, text-or-hex bytes. */
export function valueText(feature: Feature, index: number): string {
  if (feature.kind === 'int64') return String(feature.value[index]);
  if (feature.kind === 'float') return floatText(feature.value[index] ?? NaN);
  if (feature.kind === 'bytes') return bytesText(feature.value[index] ?? new Uint8Array(0));
  return '';
}

/** A feature's values in one short line: the first `limit`, then how many more. */
export function featureLine(feature: Feature, limit = 4): string {
  const count = feature.value.length;
  if (count === 0) return '[]';
  const shown = Array.from({ length: Math.min(count, limit) }, (_, index) => valueText(feature, index));
  const text = shown.map((value) => (value.length > 40 ? `${value.slice(0, 39)}…` : value)).join(', ');
  if (count === 1) return text;
  return `[${text}${count > limit ? `, … ${count - limit} more` : ''}]`;
}

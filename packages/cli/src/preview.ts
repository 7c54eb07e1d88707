import { floatToJson, type Feature } from '@tfpipe/core';
import { printableName } from './printable.js';

const IMAGE_MAGIC: readonly [string, (bytes: Uint8Array) => boolean][] = [
  ['jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['png', (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47],
  ['gif', (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38],
  ['webp', (b) => b[0] === 0x52 && b[1] === 0x49 && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42],
];
const decoder = new TextDecoder('utf-8', { fatal: true });
const MAX_VALUES = 8;
const MAX_TEXT = 48;

/** The image format of some bytes from their magic number, if they are an image. */
export function imageFormat(bytes: Uint8Array): string | undefined {
  return IMAGE_MAGIC.find(([, test]) => test(bytes))?.[0];
}

/** `3.5 KB`-style size. */
export function formatBytes(count: number): string {
  if (count < 1024) return `${count} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = count / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/**
 * `1,234,567`-style count (what `toLocaleString('en-US')` prints for an integer), without loading the
 * locale data that `toLocaleString` and `Intl` load on first use (~20 ms of every command that prints
 * a count). Non-integers are rounded.
 */
export function formatCount(count: number): string {
  const digits = Math.round(Math.abs(count)).toString();
  if (!/^\d+$/.test(digits)) return Math.round(count).toString();
  let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `,${digits.slice(at, at + 3)}`;
  return count <= -0.5 ? `-${grouped}` : grouped;
}

function previewBytes(bytes: Uint8Array): string {
  const image = imageFormat(bytes);
  if (image !== undefined) return `<${image} image, ${formatBytes(bytes.length)}>`;
  let text: string | undefined;
  try {
    text = decoder.decode(bytes);
  } catch {
    text = undefined;
  }
  // eslint-disable-next-line no-control-regex
  if (text !== undefined && !/[\u0000-\u0008\u000e-\u001f]/.test(text)) {
    const shown = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
    return `${printableName(JSON.stringify(shown))}${bytes.length > 16 ? ` (${formatBytes(bytes.length)})` : ''}`;
  }
  const hex = Array.from(bytes.subarray(0, 12), (byte) => byte.toString(16).padStart(2, '0')).join(' ');
  return `<${formatBytes(bytes.length)}: ${hex}${bytes.length > 12 ? ' …' : ''}>`;
}

/** A float32 as protobuf's JSON printer writes it, `-0` included (`String(-0)` is `'0'`). */
function floatText(value: number): string {
  const json = floatToJson(value);
  return Object.is(json, -0) ? '-0' : String(json);
}

/** `int64[3]`, `bytes[1]`, `(no kind)`. */
export function describeKind(feature: Feature): string {
  return feature.kind === 'none' ? '(no kind)' : `${feature.kind}[${feature.value.length}]`;
}

/** The first values of a feature, readable. */
export function previewValues(feature: Feature): string {
  const shown: string[] = [];
  const values = feature.value;
  for (let index = 0; index < Math.min(values.length, MAX_VALUES); index++) {
    const value = values[index];
    if (value instanceof Uint8Array) shown.push(previewBytes(value));
    // A float32 shown as protobuf's JSON printer writes it: 1.1, not 1.100000023841858.
    else if (feature.kind === 'float') shown.push(floatText(value as number));
    else shown.push(String(value));
  }
  if (values.length > MAX_VALUES) shown.push(`… ${values.length - MAX_VALUES} more`);
  return shown.join(', ');
}

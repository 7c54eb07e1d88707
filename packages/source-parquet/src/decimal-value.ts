/** DECIMAL values: an unscaled integer (INT32, INT64 or big-endian two's-complement bytes) and a scale. */

/** The unscaled value of a DECIMAL stored as big-endian two's-complement bytes. */
export function decimalFromBytes(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n;
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  const bits = BigInt(bytes.length * 8);
  return (bytes[0] ?? 0) >= 0x80 ? value - (1n << bits) : value;
}

/** The exact decimal text of `unscaled × 10^-scale`: `-12.340`, `0.05`, `42`. */
export function decimalToText(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString();
  if (scale <= 0) return (negative ? '-' : '') + digits + '0'.repeat(-scale);
  const padded = digits.padStart(scale + 1, '0');
  const text = `${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`;
  return negative ? `-${text}` : text;
}

const EXACT_LIMIT = 2n ** 53n;

/** The double nearest to `unscaled × 10^-scale` (correctly rounded). */
export function decimalToFloat(unscaled: bigint, scale: number): number {
  const magnitude = unscaled < 0n ? -unscaled : unscaled;
  // Both operands exact, so one division rounds once; otherwise parse the exact text.
  if (magnitude < EXACT_LIMIT && scale >= 0 && scale <= 22) return Number(unscaled) / 10 ** scale;
  return Number(decimalToText(unscaled, scale));
}

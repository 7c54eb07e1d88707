/**
 * How parsed values are written as text by `tfpipe head --spec` and `tfpipe export`: exact, and the
 * same in every format that writes them.
 */

/**
 * The shortest decimal that reads back as the same float32 (`0.1`, not `0.10000000149011612`), or
 * `NaN`, `Infinity`, `-Infinity`.
 */
export function float32Text(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Object.is(value, -0)) return '-0';
  // Whole numbers up to 2^24 are exact in a float32 and print shortest as they are.
  if (Number.isInteger(value) && Math.abs(value) <= 16_777_216) return String(value);
  // Fewer digits round-trip only if more do too: a binary search over 1…9 significant digits (nine
  // always round-trip a float32).
  let [low, high] = [1, 9];
  while (low < high) {
    const digits = (low + high) >> 1;
    if (Math.fround(Number(value.toPrecision(digits))) === value) high = digits;
    else low = digits + 1;
  }
  return String(Number(value.toPrecision(low)));
}

/** A JSON number for a float: finite values as numbers, the others as protobuf's JSON strings (`"NaN"`). */
export function floatJson(value: number, float32: boolean): string {
  if (!Number.isFinite(value)) return `"${String(value)}"`;
  return float32 ? float32Text(value) : Object.is(value, -0) ? '-0' : String(value);
}

/** Bytes as protobuf's JSON form writes them: standard base64 with padding. */
export function base64(value: Uint8Array): string {
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
}

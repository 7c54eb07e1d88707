/**
 * The JSON number protobuf's JSON printer writes for a `float` field. C++ `MessageToJsonString`
 * writes floats with `io::SimpleFtoa` (protobuf src/google/protobuf/io/strtod.cc, `FloatToBuffer`):
 * `%.6g` (FLT_DIG digits) when that parses back to the same float, otherwise `%.9g` (FLT_DIG + 3).
 * Python's `MessageToJson` (json_format.py, `type_checkers.ToShortestFloat`) tries 6, 7, 8, 9
 * significant digits and keeps the first that survives a float32 round trip. So `Math.fround(0.1)`
 * prints as `0.1`, never `0.10000000149011612`. We follow Python's search (which gives the C++ digits
 * whenever 6 digits suffice, and fewer digits than C++'s 9 when 7 or 8 suffice; both read back to the
 * same float32).
 *
 * Non-finite values are the strings `"NaN"`, `"Infinity"`, `"-Infinity"`, as the proto3 JSON
 * mapping prescribes. The returned number is the value, not the text: `JSON.stringify` may format its
 * exponent differently (`1e-7` where C++ writes `1e-07`), and writes `-0` as `0` (`jsonText` and
 * `exampleToJsonText` write `-0`, as protobuf does).
 *
 * Differences that remain, all on values no one types: JavaScript's `toPrecision` rounds exact
 * ties up where C's printf rounds half to even, and the round-trip check goes through a double.
 */
export function floatToJson(value: number): number | string {
  const single = Math.fround(value);
  if (Number.isNaN(single)) return 'NaN';
  if (single === Infinity) return 'Infinity';
  if (single === -Infinity) return '-Infinity';
  if (single === 0) return single;
  for (let digits = 6; digits < 9; digits++) {
    const candidate = Number(single.toPrecision(digits));
    if (Math.fround(candidate) === single) return candidate;
  }
  return Number(single.toPrecision(9));
}

/** The largest decimal that still rounds to the largest float32 (protobuf's `SafeDoubleToFloat`). */
const MAX_FLOAT_AS_DOUBLE_ROUNDED = 3.4028235e38;
const NUMBER_TEXT = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A float from its JSON form: a number, a numeric string, or `"NaN"` / `"Infinity"` / `"-Infinity"`.
 * Returns `undefined` for anything else and for finite values beyond the float32 range.
 */
export function floatFromJson(value: unknown): number | undefined {
  let number: number;
  if (typeof value === 'number') {
    // Only an object can hold these (JSON text cannot); take them as the strings would be taken.
    if (!Number.isFinite(value)) return value;
    number = value;
  } else if (typeof value === 'string') {
    if (value === 'NaN') return NaN;
    if (value === 'Infinity') return Infinity;
    if (value === '-Infinity') return -Infinity;
    if (!NUMBER_TEXT.test(value)) return undefined;
    number = Number(value);
  } else {
    return undefined;
  }
  if (!Number.isFinite(number) || Math.abs(number) > MAX_FLOAT_AS_DOUBLE_ROUNDED) return undefined;
  return Math.fround(number);
}

/**
 * JSON text as `JSON.stringify` writes it without indentation, except that a negative zero is written
 * `-0`. `JSON.stringify(-0)` is `"0"`, which drops the sign bit of a float `-0`; protobuf's JSON
 * printers keep it (C++ `MessageToJsonString` writes `-0`, Python's `MessageToJson` `-0.0`), and
 * `JSON.parse('-0')` reads it back as `-0`. Meant for the JSON forms of the codec (plain objects,
 * arrays, strings, numbers): `toJSON` methods are not called; nesting is as deep as the value's.
 */
export function jsonText(value: unknown): string {
  const parts: string[] = [];
  write(value, parts);
  return parts.join('');
}

/** Appends the text of `value`; false (nothing appended) for what `JSON.stringify` leaves out of objects. */
function write(value: unknown, parts: string[]): boolean {
  if (typeof value === 'number') {
    parts.push(Object.is(value, -0) ? '-0' : JSON.stringify(value));
    return true;
  }
  if (typeof value !== 'object' || value === null) {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) return false;
    parts.push(text);
    return true;
  }
  if (Array.isArray(value)) {
    parts.push('[');
    for (let index = 0; index < value.length; index++) {
      if (index > 0) parts.push(',');
      if (!write(value[index], parts)) parts.push('null');
    }
    parts.push(']');
    return true;
  }
  parts.push('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const mark = parts.length;
    parts.push(first ? '' : ',', JSON.stringify(key), ':');
    if (write((value as Record<string, unknown>)[key], parts)) first = false;
    else parts.length = mark;
  }
  parts.push('}');
  return true;
}

/**
 * Ints a record takes in a record index of `fieldCount` fields: its start, its end (where the next
 * record starts) and the newlines inside its quoted cells, then each field's first byte and its end
 * (one past its last byte; stored as `~end`, a negative number, when the cell holds `""` escapes).
 * An empty line skipped (`skipEmptyLines`) takes one record's place with -1 as its newline count.
 */
export function recordStride(fieldCount: number): number {
  return 3 + 2 * fieldCount;
}

/**
 * Finds the plain RFC 4180 records of `bytes` from `from` on, and writes where each record and each
 * of its fields start and end into `index` ({@link recordStride} ints per record). Stops at the first
 * record that is not plain (other quoting, a wrong field count, a carriage return on its own, no
 * newline before the end of `bytes`), or when `index` is full, and returns how many records it
 * wrote: the CSV byte path converts those and goes on from where they end.
 *
 * The CSV index thread runs this function's own source (its `toString()`), so it refers to nothing
 * outside itself.
 * @param delimiter - the delimiter's byte (ASCII)
 * @param quote - the quote's byte (ASCII); the escape is the quote doubled
 */
export function indexRecords(
  bytes: Uint8Array,
  from: number,
  delimiter: number,
  quote: number,
  fieldCount: number,
  skipEmptyLines: boolean,
  index: Int32Array,
): number {
  const LF = 0x0a;
  const CR = 0x0d;
  const length = bytes.length;
  const stride = 3 + 2 * fieldCount;
  // Ends are int32s.
  if (length > 0x7fffffff) return 0;
  const capacity = Math.floor(index.length / stride);
  let count = 0;
  let start = from;
  records: while (start < length && count < capacity) {
    const at = count * stride;
    const first = bytes[start]!;
    if (first === LF) {
      if (!skipEmptyLines) break;
      index[at] = start;
      index[at + 1] = start + 1;
      index[at + 2] = -1;
      count++;
      start++;
      continue;
    }
    if (first === CR) break;
    let position = start;
    let field = 0;
    let lines = 0;
    let end = -1;
    let cursor = at + 3;
    while (end < 0) {
      if (field >= fieldCount) break records;
      let cellStart: number;
      let cellEnd: number;
      let escaped = false;
      if (bytes[position] === quote) {
        cellStart = position + 1;
        // One pass finds the closing quote and counts the newlines before it: for the short quoted
        // cells of most files, a call to indexOf per cell and a second loop cost more.
        let scan = cellStart;
        for (;;) {
          if (scan >= length) break records;
          const byte = bytes[scan]!;
          if (byte === quote) {
            if (scan + 1 >= length) break records;
            if (bytes[scan + 1] !== quote) break;
            escaped = true;
            scan += 2;
            continue;
          }
          if (byte === LF) lines++;
          scan++;
        }
        cellEnd = scan;
        position = scan + 1;
        const next = bytes[position];
        if (next === delimiter) position++;
        else if (next === LF) end = position + 1;
        else if (next === CR && bytes[position + 1] === LF) end = position + 2;
        else break records;
      } else {
        cellStart = position;
        let scan = position;
        let byte = 0;
        while (scan < length && (byte = bytes[scan]!) !== delimiter && byte !== LF) scan++;
        if (scan === length) break records;
        if (byte === delimiter) {
          cellEnd = scan;
          position = scan + 1;
        } else {
          cellEnd = scan > cellStart && bytes[scan - 1] === CR ? scan - 1 : scan;
          end = scan + 1;
        }
      }
      index[cursor] = cellStart;
      index[cursor + 1] = escaped ? ~cellEnd : cellEnd;
      cursor += 2;
      field++;
    }
    if (field !== fieldCount) break;
    index[at] = start;
    index[at + 1] = end;
    index[at + 2] = lines;
    count++;
    start = end;
  }
  return count;
}

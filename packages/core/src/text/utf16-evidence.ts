/** The bytes looked at: enough for a header line, few enough to cost nothing per file. */
const SAMPLE_BYTES = 256;

/**
 * `'UTF-16LE'` or `'UTF-16BE'` when the start of a text file looks like UTF-16 rather than UTF-8, so
 * a reader can say so instead of "invalid UTF-8" (or, for ASCII text, which UTF-16 writes with a NUL
 * byte after or before every character and so is valid UTF-8, a baffling column or JSON error).
 * Evidence: a UTF-16 byte order mark, or NUL bytes in at least three quarters of the odd (LE) or
 * even (BE) positions of the first 256 bytes, at least two characters' worth. UTF-8 text has no NULs.
 *
 * @param head - the first bytes of the file (at least 4 for the NUL test to decide)
 */
export function utf16Evidence(head: Uint8Array): 'UTF-16LE' | 'UTF-16BE' | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return 'UTF-16LE';
  if (head[0] === 0xfe && head[1] === 0xff) return 'UTF-16BE';
  const pairs = Math.floor(Math.min(head.length, SAMPLE_BYTES) / 2);
  if (pairs < 2) return undefined;
  let nulAfter = 0;
  let nulBefore = 0;
  for (let pair = 0; pair < pairs; pair++) {
    const first = head[2 * pair];
    const second = head[2 * pair + 1];
    if (first !== 0 && second === 0) nulAfter++;
    else if (first === 0 && second !== 0) nulBefore++;
  }
  if (nulAfter * 4 >= pairs * 3) return 'UTF-16LE';
  if (nulBefore * 4 >= pairs * 3) return 'UTF-16BE';
  return undefined;
}

/** What to tell the user of a file `utf16Evidence` flagged: a command that converts it. */
export function utf16Advice(encoding: 'UTF-16LE' | 'UTF-16BE', file: string): string {
  const name = file.split(/[\\/]/).pop() ?? file;
  const converted = name.replace(/(\.[^.]*)?$/, '.utf8$1');
  return `it looks like ${encoding}, not UTF-8; convert it first: iconv -f ${encoding} -t UTF-8 ${name} > ${converted}`;
}

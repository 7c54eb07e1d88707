/** The delimiters auto-detection chooses from, in order of preference on a tie. */
export const DETECTABLE_DELIMITERS: readonly string[] = [',', ';', '\t', '|'];

/**
 * Picks the delimiter from the first lines of a file: the candidate that occurs the same, non-zero
 * number of times (outside quotes) on every complete line wins, the most frequent first; failing
 * that, the one with the highest minimum count; failing that, `,`.
 *
 * @param text - the start of the file (decoded); only its first `maxLines` complete lines are read.
 */
export function detectDelimiter(text: string, quote: string, comment?: string, maxLines = 10): string {
  const lines = splitLines(text, quote, maxLines).filter(
    (line) => comment === undefined || !line.startsWith(comment),
  );
  let best = ',';
  let bestScore = 0;
  for (const candidate of DETECTABLE_DELIMITERS) {
    const counts = lines.map((line) => countOutsideQuotes(line, candidate, quote));
    if (counts.length === 0) continue;
    const min = Math.min(...counts);
    const consistent = counts.every((count) => count === counts[0]);
    const score = min === 0 ? 0 : consistent ? 1_000_000 + min : min;
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

/** Splits off up to `maxLines` records at newlines outside quotes (the last, partial line too if alone). */
function splitLines(text: string, quote: string, maxLines: number): string[] {
  const lines: string[] = [];
  let inQuotes = false;
  let start = 0;
  for (let index = 0; index < text.length && lines.length < maxLines; index++) {
    const char = text[index];
    if (char === quote) inQuotes = !inQuotes;
    else if (char === '\n' && !inQuotes) {
      lines.push(text.slice(start, index));
      start = index + 1;
    }
  }
  if (lines.length === 0 && start < text.length) lines.push(text.slice(start));
  return lines.filter((line) => line.trim() !== '');
}

function countOutsideQuotes(line: string, delimiter: string, quote: string): number {
  let count = 0;
  let inQuotes = false;
  for (const char of line) {
    if (char === quote) inQuotes = !inQuotes;
    else if (char === delimiter && !inQuotes) count++;
  }
  return count;
}

/**
 * `text.trim()`, skipped when neither end can be whitespace: trimming every numeric cell costs more
 * than parsing it, and almost no cell needs it.
 */
export function trimCell(text: string): string {
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  return first > 32 && first < 127 && last > 32 && last < 127 ? text : text.trim();
}

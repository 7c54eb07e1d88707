/**
 * The first line of an error message: libvips appends what else is in its error buffer, lines
 * that may come from other images decoded at the same time; an error names one image, in one line.
 */
export function firstLine(message: string): string {
  return message.trim().split('\n', 1)[0]!.trim();
}

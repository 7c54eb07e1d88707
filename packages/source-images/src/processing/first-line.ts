/**
 * The first line of an error message: sharp appends libvips' error buffer, which is shared by the
 * whole process, so its lines may come from other images decoded at the same time (or this image's
 * lines may have gone with another's error, leaving `Input buffer has corrupt header:` alone). An
 * error names one image, in one line; a colon left dangling goes too.
 */
export function firstLine(message: string): string {
  return message.trim().split('\n', 1)[0]!.replace(/:\s*$/, '').trim();
}

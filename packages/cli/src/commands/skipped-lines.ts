/** `skipped N bad record(s):` and the first 10 errors, one a line; nothing when none was skipped. */
export function skippedLines(
  skipped: number,
  errors: readonly { readonly message: string; readonly code: string }[],
): string[] {
  if (skipped === 0) return [];
  return [
    `skipped ${skipped} bad record(s):`,
    ...errors.slice(0, 10).map((error) => `  ${error.message} [${error.code}]`),
  ];
}

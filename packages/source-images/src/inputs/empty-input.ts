import { TfpipeError } from '@tfpipe/core';

/** What a class-folder scan saw besides the images it lists, for {@link emptyInputError}. */
export interface ScanFindings {
  /** Files inside class folders whose extension is not an image one, by lowercase extension ('' for none). */
  readonly otherFiles: ReadonlyMap<string, number>;
  /** Image files lying directly in the root, which is no class. */
  readonly rootImages: number;
  /** The extensions that count as images. */
  readonly extensions: readonly string[];
}

/**
 * The fatal error for an input that lists no image: an empty output with exit code 0 would look like
 * success. With a scan's findings it says what was there instead (e.g. `.tif` files, which look like
 * images but are not read), so that the fix is plain.
 * @returns `IMAGE_UNSUPPORTED` when files of other extensions were found, else `INPUT_NOT_FOUND`
 */
export function emptyInputError(what: string, file: string, findings?: ScanFindings): TfpipeError {
  const position = { file };
  const detail = `no image in ${what}`;
  const facts = { stage: 'imageSource', position, fatal: true } as const;
  if (findings !== undefined && findings.otherFiles.size > 0) {
    const found = [...findings.otherFiles]
      .sort(([, left], [, right]) => right - left)
      .slice(0, 5)
      .map(([extension, count]) => `${extension === '' ? 'no extension' : extension} (${count})`)
      .join(', ');
    const read = findings.extensions.join(', ');
    return new TfpipeError('IMAGE_UNSUPPORTED', detail, {
      ...facts,
      reason: `its files end in ${found}, none in ${read}, the extensions read as images`,
    });
  }
  const reason =
    findings !== undefined && findings.rootImages > 0
      ? `its ${findings.rootImages} image(s) lie directly in it: put them in one folder per class`
      : 'pass allowEmpty: true to accept an empty input';
  return new TfpipeError('INPUT_NOT_FOUND', detail, { ...facts, reason });
}

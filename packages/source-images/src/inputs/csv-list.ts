import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { positionOf, reportOf, TfpipeError } from '@tfpipe/core';
import type * as SourceCsv from '@tfpipe/source-csv';
import type { CsvRow } from '@tfpipe/source-csv';
import { checkInputFile, inputError } from './read-input-file.js';

/** One entry of a list file: its line, the path and label cells and the other columns. */
export interface ListEntry {
  readonly line: number;
  readonly path: unknown;
  readonly label: unknown;
  readonly extra: Record<string, unknown>;
}

const SOURCE_CSV = '@tfpipe/source-csv';

/**
 * `@tfpipe/source-csv`, an optional peer: imported only for a CSV list, so image folders, COCO, VOC,
 * JSON Lines and `.txt` lists work without it installed.
 * @param importer - how to import it (a test passes one that fails) @default a dynamic `import()`
 * @throws TfpipeError `INVALID_OPTION` naming the package to install when it is not installed
 */
export async function loadSourceCsv(
  file: string,
  importer: () => Promise<typeof SourceCsv> = () => import('@tfpipe/source-csv'),
): Promise<typeof SourceCsv> {
  try {
    return await importer();
  } catch (error) {
    const missing =
      (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' &&
      (error as Error).message.includes(`'${SOURCE_CSV}'`);
    // Installed but broken (its own dependency missing): that error says more than ours would.
    if (!missing) throw error;
    throw new TfpipeError('INVALID_OPTION', `a CSV list file needs ${SOURCE_CSV}, which is not installed`, {
      stage: 'imageSource',
      fatal: true,
      cause: error,
      position: { file },
      reason: `install it (npm install ${SOURCE_CSV}), or give the list as .jsonl or .txt`,
    });
  }
}

/**
 * A CSV list through source-csv's streaming parser (loaded only now, see {@link loadSourceCsv}) (comma-separated, RFC 4180 quoting, blank lines
 * skipped), header names trimmed. Any CSV error is fatal here: a list with a bad row is a bad list.
 */
export async function parseCsvList(file: string): Promise<ListEntry[]> {
  await checkInputFile(file);
  const { csvSource } = await loadSourceCsv(file);
  const bytes = Readable.toWeb(createReadStream(file)) as unknown as ReadableStream<Uint8Array>;
  const source = csvSource({ stream: bytes, fileName: file, delimiter: ',', allowEmpty: true });
  const rows: CsvRow[] = [];
  const reader = source.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) rows.push(next.value);
  } catch (error) {
    throw listError(error, file);
  }
  const columns = (reportOf(source)?.details?.columns as string[] | undefined) ?? [];
  const names = columns.map((name) => name.trim());
  const pathColumn = columns[names.indexOf('path')];
  if (pathColumn === undefined) {
    throw new TfpipeError('CSV_HEADER', 'the list file needs a header row with a "path" column', {
      stage: 'imageSource',
      position: { file, line: 1 },
      fatal: true,
      reason: `found ${JSON.stringify(names)}`,
    });
  }
  const labelColumn = columns[names.indexOf('label')];
  return rows.map((row) => {
    const extra: Record<string, unknown> = {};
    columns.forEach((column, index) => {
      if (column !== pathColumn && column !== labelColumn) extra[names[index]!] = row[column];
    });
    return {
      line: positionOf(row)?.line ?? 0,
      path: row[pathColumn],
      label: labelColumn === undefined ? undefined : row[labelColumn],
      extra,
    };
  });
}

/** source-csv's error (or an I/O error) as a fatal error of this stage, position kept. */
function listError(error: unknown, file: string): TfpipeError {
  if (!TfpipeError.is(error)) return inputError(error, file);
  return new TfpipeError(error.code, `malformed list file: ${error.detail}`, {
    stage: 'imageSource',
    position: error.position,
    fatal: true,
    cause: error,
    ...(error.reason === undefined ? {} : { reason: error.reason }),
  });
}

import { HEADER_BYTES } from '@tfpipe/sink-tfrecord/web';
import { byteSource } from './byte-source.js';
import type { RecordIndex } from './record-index.js';
import type { FileSource } from './worker-protocol.js';
import { counted } from './words.js';

/** The largest `.idx` file read, in bytes (as the CLI bounds a manifest). @default 64 MiB */
export const MAX_INDEX_FILE_BYTES = 64 * 1024 * 1024;
/** Mismatches listed in full; the count is always exact. @default 100 */
export const MAX_LISTED_MISMATCHES = 100;

/** One line of a DALI index: where a record's frame starts and its size with the 16 framing bytes. */
export interface IndexEntry {
  readonly offset: number;
  readonly size: number;
}

/** A DALI `.idx` file checked against the records the reader found. */
export interface IndexCheck {
  /** The index file's name. */
  readonly name: string;
  /** Its lines (records it lists). */
  readonly entries: number;
  /** Lines that disagree with the file (1-based line numbers in the text), the first ones. */
  readonly mismatches: readonly string[];
  readonly mismatchCount: number;
}

/**
 * Parses `<offset> <size>` lines (DALI's `tfrecord2idx`, vahidk/tfrecord, `tfrecordSink({ index })`).
 * @throws Error naming the line of the first line that is not two whole numbers
 */
export function parseIndex(text: string, name: string): IndexEntry[] {
  const entries: IndexEntry[] = [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((line, at) => {
    const match = /^(\d+) (\d+)\r?$/.exec(line);
    const offset = Number(match?.[1]);
    const size = Number(match?.[2]);
    if (match === null || !Number.isSafeInteger(offset) || !Number.isSafeInteger(size)) {
      throw new Error(`${name}, line ${at + 1}: not "<offset> <size>": ${JSON.stringify(line.slice(0, 80))}`);
    }
    entries.push({ offset, size });
  });
  return entries;
}

/**
 * Compares an index's lines with what the reader found: line N (0-based) must be record N's frame,
 * at the record's byte offset and 16 bytes longer than its payload. A record the reader lost, a line
 * too many or too few, are mismatches.
 */
export function checkIndex(
  name: string,
  entries: readonly IndexEntry[],
  index: RecordIndex,
  records: number,
): IndexCheck {
  const mismatches: string[] = [];
  let mismatchCount = 0;
  const mismatch = (text: string): void => {
    mismatchCount++;
    if (mismatches.length < MAX_LISTED_MISMATCHES) mismatches.push(text);
  };
  let row = 0;
  entries.forEach((entry, recordIndex) => {
    while (row < index.count && index.recordIndex(row) < recordIndex) row++;
    const line = `line ${recordIndex + 1}`;
    if (row >= index.count || index.recordIndex(row) !== recordIndex) {
      mismatch(`${line}: record ${recordIndex} at byte ${entry.offset} is not a readable record`);
      return;
    }
    const size = index.length(row) + HEADER_BYTES + 4;
    if (entry.offset !== index.byteOffset(row) || entry.size !== size) {
      mismatch(
        `${line}: says byte ${entry.offset}, ${entry.size} bytes; record ${recordIndex} is at byte ${index.byteOffset(row)}, ${size} bytes`,
      );
    }
  });
  if (records > entries.length)
    mismatch(
      `${counted(records - entries.length, 'record')} of the file ${records - entries.length === 1 ? 'is' : 'are'} missing from the index`,
    );
  return { name, entries: entries.length, mismatches, mismatchCount };
}

/**
 * Reads and parses a shard's `.idx`, at most {@link MAX_INDEX_FILE_BYTES}: a larger one is refused
 * before any of it is read.
 * @throws Error naming the file when it is too large, or the line that is not `<offset> <size>`
 */
export async function readIndexFile(source: FileSource): Promise<IndexEntry[]> {
  const file = byteSource(source);
  if (file.size > MAX_INDEX_FILE_BYTES) {
    throw new Error(
      `${file.name}: ${file.size} bytes, more than the ${MAX_INDEX_FILE_BYTES} an index file may have`,
    );
  }
  return parseIndex(new TextDecoder().decode(await file.read(0, file.size)), file.name);
}

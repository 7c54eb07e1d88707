import {
  HEADER_BYTES,
  iterate,
  readTfrecordStream,
  type TfrecordCompression,
} from '@tfpipe/sink-tfrecord/web';
import { sliceStream, type ByteSource } from './byte-source.js';
import type { PayloadCache, RecordIndex } from './record-index.js';

/** The longest range one table page reads from an uncompressed file, in bytes. @default 64 MiB */
const MAX_PAGE_READ_BYTES = 64 * 1024 * 1024;

/** What reading records back needs: the file, its index, its compression and the kept payloads. */
export interface PayloadSource {
  readonly source: ByteSource;
  readonly index: RecordIndex;
  readonly compression: TfrecordCompression;
  readonly cache: PayloadCache;
}

/**
 * The payloads of table rows `[start, end)`: sliced from an uncompressed file at their offsets (one
 * read for a page of rows), from the cache for a compressed one, else by decompressing it again.
 */
export async function readPayloads(from: PayloadSource, start: number, end: number): Promise<Uint8Array[]> {
  const { index, source } = from;
  if (from.compression === 'none') {
    const first = index.byteOffset(start);
    const last = index.byteOffset(end - 1) + HEADER_BYTES + index.length(end - 1);
    if (last - first <= MAX_PAGE_READ_BYTES) {
      const bytes = await source.read(first, last);
      return rowRange(start, end).map((row) => {
        const offset = index.byteOffset(row) - first + HEADER_BYTES;
        return bytes.subarray(offset, offset + index.length(row));
      });
    }
    return Promise.all(
      rowRange(start, end).map((row) => {
        const offset = index.byteOffset(row) + HEADER_BYTES;
        return source.read(offset, offset + index.length(row));
      }),
    );
  }
  const kept = rowRange(start, end).map((row) => from.cache.get(row));
  if (kept.every((payload) => payload !== undefined)) return kept;
  return decompressAgain(from, start, end);
}

/** Past the cache's budget a compressed record is found by decompressing from the start again. */
async function decompressAgain(from: PayloadSource, start: number, end: number): Promise<Uint8Array[]> {
  const { index, source } = from;
  const wanted = new Map(rowRange(start, end).map((row) => [index.recordIndex(row), row - start]));
  const last = index.recordIndex(end - 1);
  const found: Uint8Array[] = [];
  const records = readTfrecordStream(
    sliceStream(source, () => undefined),
    { file: source.name, compression: from.compression, onError: 'skip' },
  );
  for await (const record of iterate(records)) {
    const slot = wanted.get(record.recordIndex);
    if (slot !== undefined) found[slot] = record.data;
    if (record.recordIndex >= last) break;
  }
  return rowRange(start, end).map((row) => found[row - start] ?? new Uint8Array(0));
}

function rowRange(start: number, end: number): number[] {
  return Array.from({ length: Math.max(0, end - start) }, (_, offset) => start + offset);
}

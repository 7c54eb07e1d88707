import { frameRecord, HEADER_BYTES } from '@tfpipe/sink-tfrecord/web';
import { forEachPayload, PASS_READ_BYTES, rowSteps } from './record-pass.js';
import type { PayloadSource } from './record-payloads.js';
import type { SelectedRows } from './row-selection.js';

/** The bytes after a payload: its masked CRC-32C. */
const FOOTER_BYTES = 4;

/**
 * The selected records as a new uncompressed `.tfrecord` file. An uncompressed source's frames are
 * copied from the file as they are (both CRCs included); a compressed source's payloads, whose CRCs
 * the reading pass verified, are framed again, which gives the same bytes. Parts of about
 * {@link PASS_READ_BYTES} go into the Blob, which the browser may keep on disk.
 */
export async function exportRecords(
  from: PayloadSource,
  rows: SelectedRows,
  onProgress: (visited: number) => void,
): Promise<{ blob: Blob; records: number }> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  const selected = rows ?? { count: from.index.count };
  let records = 0;
  if (from.compression === 'none') {
    const { index, source } = from;
    for (const { first, last, visited } of rowSteps(from, selected)) {
      const start = index.byteOffset(first);
      const end = index.byteOffset(last) + HEADER_BYTES + index.length(last) + FOOTER_BYTES;
      parts.push((await source.read(start, end)) as Uint8Array<ArrayBuffer>);
      records += last - first + 1;
      onProgress(visited);
    }
  } else {
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const flush = (): void => {
      const part = new Uint8Array(pendingBytes);
      let at = 0;
      for (const frame of pending) {
        part.set(frame, at);
        at += frame.length;
      }
      parts.push(part);
      pending = [];
      pendingBytes = 0;
    };
    await forEachPayload(
      from,
      selected,
      (payload) => {
        const frame = frameRecord(payload);
        pending.push(frame);
        pendingBytes += frame.length;
        records++;
        if (pendingBytes >= PASS_READ_BYTES) flush();
      },
      onProgress,
    );
    if (pending.length > 0) flush();
  }
  return { blob: new Blob(parts, { type: 'application/octet-stream' }), records };
}

import { frameRecord, HEADER_BYTES } from '@tfpipe/sink-tfrecord/web';
import { forEachPayload, PASS_READ_BYTES, rowOfPosition, rowSteps } from './record-pass.js';
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
    const rowAt = rowOfPosition(selected);
    for (const step of rowSteps(from, selected)) {
      const bytes = (await source.read(step.start, step.end)) as Uint8Array<ArrayBuffer>;
      if (step.contiguous) parts.push(bytes);
      else {
        // Rows apart in the file (every k-th, a sample): their frames, from one read for the step,
        // copied together so that the read's buffer goes.
        const frames: Uint8Array[] = [];
        for (let position = step.visited - step.count; position < step.visited; position++) {
          const row = rowAt(position);
          const offset = index.byteOffset(row) - step.start;
          frames.push(bytes.subarray(offset, offset + HEADER_BYTES + index.length(row) + FOOTER_BYTES));
        }
        parts.push(joined(frames));
      }
      records += step.count;
      onProgress(step.visited);
    }
  } else {
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const flush = (): void => {
      parts.push(joined(pending));
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

/** `chunks` one after the other in one new array. */
function joined(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

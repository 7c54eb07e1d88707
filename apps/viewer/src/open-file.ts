import { TfpipeError } from '@tfpipe/core';
import {
  DEFAULT_MAX_RECORD_BYTES,
  HEADER_BYTES,
  crc32c,
  decompressTfrecord,
  detectCompression,
  wasmCrc32c,
  wasmFrameWalker,
  type Crc32cFunction,
  type FrameWalker,
  type TfrecordCompression,
} from '@tfpipe/sink-tfrecord/web';
import { sliceStream, type ByteSource } from './byte-source.js';
import { decodePayload, payloadSummary } from './decode-payload.js';
import { PayloadCache, RecordIndex } from './record-index.js';
import { readPayloads, type PayloadSource } from './record-payloads.js';
import { BOXED_IMAGE_KEYS } from './detection-boxes.js';
import { recordDetail } from './record-detail.js';
import { exportRecords } from './export-records.js';
import { forEachPayload } from './record-pass.js';
import { verifyingPass } from './verifying-pass.js';
import { selectRows, type SelectedRows, type Selection } from './row-selection.js';
import { ProfileCollector, type DatasetProfile } from './stats/dataset-profile.js';
import type {
  LostRange,
  PassTask,
  RecordDetail,
  Problem,
  RecordRow,
  Thumbnail,
  WorkerResponse,
} from './worker-protocol.js';

/** How many problems the page is sent in full; the count is always exact. @default 1000 */
export const MAX_LISTED_PROBLEMS = 1000;
/** How often the reading pass reports progress, in milliseconds. @default 100 */
const PROGRESS_INTERVAL_MS = 100;

/** The stage named in the reading pass's errors. */
const STAGE = 'tfpipe view';

let fastestCrc: Crc32cFunction | undefined;
/**
 * The WebAssembly CRC-32C where the worker may compile WebAssembly (a browser's V8 reads typed
 * arrays in JavaScript several times slower than Node's), else the JavaScript one.
 */
function verifyingCrc(): Crc32cFunction {
  fastestCrc ??= wasmCrc32c() ?? crc32c;
  return fastestCrc;
}

let walker: FrameWalker | null | undefined;
/** The worker's WebAssembly frame walker, made once, or `undefined` where WebAssembly is refused. */
function frameWalker(): FrameWalker | undefined {
  walker ??= wasmFrameWalker() ?? null;
  return walker ?? undefined;
}

/**
 * One file open in the worker: a single streaming pass verifies both CRCs of every record and indexes
 * the readable ones; records are then read back by row, from the file for an uncompressed one.
 */
export class OpenFile {
  readonly index = new RecordIndex();
  readonly problems: Problem[] = [];
  problemCount = 0;
  compression: TfrecordCompression = 'none';
  /** Byte ranges the reading pass lost (each counts as one record of the file). */
  lost: LostRange[] = [];
  /** Whether the reading pass is over: until then the passes below cover the records read so far. */
  scanned = false;
  readonly #cache: PayloadCache;
  /** The rows the table shows (a filter, a sample), or `undefined` for all. */
  #selected: SelectedRows;
  #profile: DatasetProfile | undefined;

  /**
   * @param source - the file as stored.
   * @param payloadCacheBytes - payload bytes of a compressed file kept for browsing. @default 256 MiB
   */
  constructor(
    private readonly source: ByteSource,
    payloadCacheBytes = 256 * 1024 * 1024,
  ) {
    this.#cache = new PayloadCache(payloadCacheBytes);
  }

  /** Reads the whole file once, posting progress; resolves when it is done (or given up on). */
  async scan(post: (message: WorkerResponse) => void): Promise<void> {
    const started = performance.now();
    const head = await this.source.read(0, 16);
    this.compression = detectCompression(head, this.source.size <= 16) ?? 'none';
    post({ type: 'compression', compression: this.compression });
    let bytesRead = 0;
    let lastPost = 0;
    const progress = (): void =>
      post({
        type: 'progress',
        bytesRead,
        totalBytes: this.source.size,
        records: this.index.count,
        problems: this.problems,
      });
    // One chunk of the file a step: records are verified and indexed a chunk at a time, with no
    // object, copy or message per record.
    const lost = await verifyingPass(
      decompressTfrecord(
        sliceStream(this.source, (read) => (bytesRead = read)),
        {
          compression: this.compression,
          file: this.source.name,
          stage: STAGE,
        },
      ),
      {
        file: this.source.name,
        stage: STAGE,
        maxRecordBytes: DEFAULT_MAX_RECORD_BYTES,
        crc: verifyingCrc(),
        walker: frameWalker(),
        payloads: this.compression !== 'none',
        record: (recordIndex, byteOffset, length, payload) => {
          this.index.add(recordIndex, byteOffset, length);
          if (payload !== undefined) this.#cache.add(payload);
        },
        walked: (bytes, frames, count, recordIndex, byteOffset) => {
          this.index.addFrames(frames, count, recordIndex, byteOffset);
          if (this.compression === 'none') return;
          for (let frame = 0; frame < count; frame++) {
            const start = frames[2 * frame]! + HEADER_BYTES;
            this.#cache.add(bytes.subarray(start, start + frames[2 * frame + 1]!));
          }
        },
        problem: (error) => this.#addProblem(error),
        afterChunk: async () => {
          const now = performance.now();
          if (now - lastPost >= PROGRESS_INTERVAL_MS || (lastPost === 0 && this.index.count > 0)) {
            lastPost = now;
            progress();
            // Decompressed chunks can arrive without a task in between: let the page's requests in.
            await new Promise((resolve) => setTimeout(resolve, 0));
          }
        },
      },
    );
    progress();
    this.lost = lost;
    this.scanned = true;
    post({
      type: 'done',
      records: this.index.count,
      problems: this.problems,
      problemCount: this.problemCount,
      lost,
      elapsed: performance.now() - started,
    });
  }

  /** Rows of the table: the selection's, else all the readable records. */
  get count(): number {
    return this.#selected?.length ?? this.index.count;
  }

  /** The table rows `[start, start + count)` with a summary of each record. */
  async rows(start: number, count: number): Promise<RecordRow[]> {
    const end = Math.min(this.count, start + count);
    const rows: RecordRow[] = [];
    await this.#forEach(start, end, (payload, row) => {
      rows.push({ ...this.#row(row), summary: payloadSummary(decodePayload(payload)) });
    });
    return rows;
  }

  /** The record on table row `row`, decoded. */
  async record(row: number): Promise<RecordDetail | undefined> {
    if (row < 0 || row >= this.count) return undefined;
    const [payload] = await this.#payloads(this.#indexRow(row), this.#indexRow(row) + 1);
    return recordDetail(this.#row(row), payload!);
  }

  /** The table row of the record with index `recordIndex` in its file (or of the next one shown). */
  rowOf(recordIndex: number): number {
    const row = this.index.rowOf(recordIndex);
    const selected = this.#selected;
    if (selected === undefined) return row;
    let low = 0;
    let high = selected.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (selected[middle]! < row) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The first image and the boxes of table rows `[start, start + count)`, for the grid. */
  async thumbnails(start: number, count: number): Promise<Thumbnail[]> {
    const end = Math.min(this.count, start + count);
    const thumbnails: Thumbnail[] = [];
    await this.#forEach(start, end, (payload, row) => {
      const detail = recordDetail(this.#row(row), payload);
      const image =
        detail.images.find((candidate) => BOXED_IMAGE_KEYS.includes(candidate.key)) ?? detail.images[0];
      thumbnails.push({
        row,
        recordIndex: detail.recordIndex,
        image,
        boxes: image === undefined ? [] : detail.boxes.boxes,
      });
    });
    return thumbnails;
  }

  /** Schema and statistics of the readable records, from one pass (kept for the file). */
  async profile(post: (message: WorkerResponse) => void): Promise<DatasetProfile> {
    if (this.#profile !== undefined) return this.#profile;
    const collector = new ProfileCollector();
    const total = this.index.count;
    await forEachPayload(
      this.#from(),
      { count: total },
      (payload) => collector.add(decodePayload(payload)),
      this.#passProgress('profile', total, post),
    );
    this.#profile = collector.result(this.source.name, this.compression);
    return this.#profile;
  }

  /**
   * Makes the table show the rows `selection` keeps, among the records read so far while the reading
   * pass goes on; resolves to how many, among how many, and whether the pass was still going.
   */
  async select(
    selection: Selection,
    post: (message: WorkerResponse) => void,
  ): Promise<{ count: number; of: number; partial: boolean }> {
    const partial = !this.scanned;
    const total = this.index.count;
    this.#selected = await selectRows(this.#from(), selection, this.#passProgress('select', total, post));
    return { count: this.count, of: total, partial };
  }

  /** The rows the table shows as a new `.tfrecord` file. */
  exportShown(post: (message: WorkerResponse) => void): Promise<{ blob: Blob; records: number }> {
    return exportRecords(this.#from(), this.#selected, this.#passProgress('export', this.count, post));
  }

  #passProgress(
    task: PassTask,
    total: number,
    post: (message: WorkerResponse) => void,
  ): (done: number) => void {
    let lastPost = 0;
    return (done) => {
      const now = performance.now();
      if (now - lastPost < PROGRESS_INTERVAL_MS && done < total) return;
      lastPost = now;
      post({ type: 'pass', task, done, total });
    };
  }

  /** Visits the payloads of table rows `[start, end)` in order, each with its table row. */
  async #forEach(
    start: number,
    end: number,
    visit: (payload: Uint8Array, row: number) => void,
  ): Promise<void> {
    if (end <= start) return;
    const selected = this.#selected;
    if (selected === undefined) {
      const payloads = await this.#payloads(start, end);
      payloads.forEach((payload, offset) => visit(payload, start + offset));
      return;
    }
    const tableRow = new Map<number, number>();
    for (let row = start; row < end; row++) tableRow.set(selected[row]!, row);
    await forEachPayload(this.#from(), selected.subarray(start, end), (payload, indexRow) =>
      visit(payload, tableRow.get(indexRow)!),
    );
  }

  #indexRow(row: number): number {
    return this.#selected?.[row] ?? row;
  }

  #from(): PayloadSource {
    const { source, index, compression } = this;
    return { source, index, compression, cache: this.#cache };
  }

  #payloads(start: number, end: number): Promise<Uint8Array[]> {
    return readPayloads(this.#from(), start, end);
  }

  /** Table row `row` (a position in the selection) and where its record lies. */
  #row(row: number): Omit<RecordRow, 'summary'> {
    const { index } = this;
    const at = this.#indexRow(row);
    return {
      row,
      recordIndex: index.recordIndex(at),
      byteOffset: index.byteOffset(at),
      length: index.length(at),
    };
  }

  #addProblem(error: unknown): void {
    this.problemCount++;
    if (this.problems.length >= MAX_LISTED_PROBLEMS) return;
    const position = TfpipeError.is(error) ? error.position : {};
    this.problems.push({
      code: TfpipeError.is(error) ? error.code : 'ERROR',
      message: error instanceof Error ? error.message : String(error),
      recordIndex: position.recordIndex,
      byteOffset: position.byteOffset,
    });
  }
}

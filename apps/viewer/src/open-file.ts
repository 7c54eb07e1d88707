import { TfpipeError } from '@tfpipe/core';
import { RecordErrorPolicy } from '@tfpipe/core/plugin';
import {
  DEFAULT_MAX_RECORD_BYTES,
  TfrecordReader,
  crc32c,
  detectCompression,
  wasmCrc32c,
  type Crc32cFunction,
  type TfrecordCompression,
} from '@tfpipe/sink-tfrecord/web';
import { sliceStream, type ByteSource } from './byte-source.js';
import { decodePayload, payloadSummary } from './decode-payload.js';
import { PayloadCache, RecordIndex } from './record-index.js';
import { readPayloads } from './record-payloads.js';
import { recordDetail } from './record-detail.js';
import type { LostRange, RecordDetail, Problem, RecordRow, WorkerResponse } from './worker-protocol.js';

/** How many problems the page is sent in full; the count is always exact. @default 1000 */
export const MAX_LISTED_PROBLEMS = 1000;
/** How often the reading pass reports progress, in milliseconds. @default 100 */
const PROGRESS_INTERVAL_MS = 100;

let fastestCrc: Crc32cFunction | undefined;
/**
 * The WebAssembly CRC-32C where the worker may compile WebAssembly (a browser's V8 reads typed
 * arrays in JavaScript several times slower than Node's), else the JavaScript one.
 */
function verifyingCrc(): Crc32cFunction {
  fastestCrc ??= wasmCrc32c() ?? crc32c;
  return fastestCrc;
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
  readonly #cache: PayloadCache;

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
    const reader = this.#reader((read) => (bytesRead = read));
    try {
      // One chunk of the file a step: records are verified and indexed inside the reader, with no
      // object, copy or message per record.
      while ((await reader.read()) !== undefined) {
        const now = performance.now();
        if (now - lastPost >= PROGRESS_INTERVAL_MS || (lastPost === 0 && this.index.count > 0)) {
          lastPost = now;
          progress();
        }
      }
    } catch (error) {
      this.#addProblem(error);
    }
    progress();
    const lost = reader.unframer.lost.map((region): LostRange => ({
      start: region.start,
      end: region.end,
      reason: region.reason,
    }));
    post({
      type: 'done',
      records: this.index.count,
      problems: this.problems,
      problemCount: this.problemCount,
      lost,
      elapsed: performance.now() - started,
    });
  }

  /** The table rows `[start, start + count)` with a summary of each record. */
  async rows(start: number, count: number): Promise<RecordRow[]> {
    const end = Math.min(this.index.count, start + count);
    const payloads = await this.#payloads(start, end);
    const rows: RecordRow[] = [];
    for (let row = start; row < end; row++) {
      rows.push({ ...this.#row(row), summary: payloadSummary(decodePayload(payloads[row - start]!)) });
    }
    return rows;
  }

  /** The record on table row `row`, decoded. */
  async record(row: number): Promise<RecordDetail | undefined> {
    if (row < 0 || row >= this.index.count) return undefined;
    const [payload] = await this.#payloads(row, row + 1);
    return recordDetail(this.#row(row), payload!);
  }

  #payloads(start: number, end: number): Promise<Uint8Array[]> {
    const { source, index, compression } = this;
    return readPayloads({ source, index, compression, cache: this.#cache }, start, end);
  }

  #row(row: number): Omit<RecordRow, 'summary'> {
    const { index } = this;
    return {
      row,
      recordIndex: index.recordIndex(row),
      byteOffset: index.byteOffset(row),
      length: index.length(row),
    };
  }

  /** The reading pass's reader: verifies both CRCs, indexes each good record, lists the problems. */
  #reader(onRead: (bytesRead: number) => void): TfrecordReader {
    const compressed = this.compression !== 'none';
    return new TfrecordReader(sliceStream(this.source, onRead), {
      file: this.source.name,
      stage: 'tfpipe view',
      compression: this.compression,
      maxRecordBytes: DEFAULT_MAX_RECORD_BYTES,
      policy: new RecordErrorPolicy({ onError: 'skip', onSkip: (error) => this.#addProblem(error) }),
      crc: verifyingCrc(),
      emit: false,
      check: (data, place) => {
        this.index.add(place.recordIndex, place.byteOffset, data.length);
        if (compressed) this.#cache.add(data);
        return true;
      },
    });
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

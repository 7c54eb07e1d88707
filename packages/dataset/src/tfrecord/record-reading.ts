import { TfpipeError } from '@tfpipe/core';
import { RecordErrorPolicy, withPosition } from '@tfpipe/core/plugin';
import type { Position, StageReport } from '@tfpipe/core';
import { TfrecordReader } from '@tfpipe/sink-tfrecord/web';
import type { LostRegion, TfRecord, TfrecordReaderSettings } from '@tfpipe/sink-tfrecord/web';
import type { WireBatcher } from '../parse/wire-batcher.js';
import type { Chunks } from '../pipeline/chunks.js';
import type { RecordRange, TfrecordFile } from './tfrecord-file.js';

/** How many lost regions a report lists; the totals are always exact. */
const MAX_LISTED_REGIONS = 1000;

/** The reader settings a dataset reads every file with (the file's name added per file). */
export type ReadingSettings = Omit<TfrecordReaderSettings, 'file' | 'policy'>;

/**
 * Reads the files of one `tfrecordDataset` with the sink's `TfrecordReader` (decompression, both CRCs,
 * resynchronisation under `onError: 'skip'`) and keeps one report over every file and every pass.
 */
export class RecordReading {
  readonly policy: RecordErrorPolicy;
  readonly #settings: ReadingSettings;
  #records = 0;
  #bytes = 0;
  #lostBytes = 0;
  #lostRegions = 0;
  readonly #lost: LostRegion[] = [];

  constructor(settings: ReadingSettings, policy: RecordErrorPolicy) {
    this.#settings = settings;
    this.policy = policy;
  }

  /**
   * The records of `file` (or of one range of it), a source chunk at a time. Positions are the file's
   * own, a range's included. Leaving early (take, an error downstream) closes the file.
   */
  async *read(file: TfrecordFile, range?: RecordRange): Chunks<TfRecord> {
    const shift = range === undefined || (range.start === 0 && range.firstRecord === 0) ? undefined : range;
    const policy = shift === undefined ? this.policy : new ShiftedPolicy(this.policy, shift);
    const reader = new TfrecordReader(file.open(range), { ...this.#settings, file: file.name, policy });
    try {
      for (;;) {
        // A range's record errors reach the policy, which places them in the whole file (and throws them under 'fail').
        const records = await reader.read();
        if (records === undefined) return;
        if (records.length > 0)
          yield shift === undefined ? records : records.map((record) => shiftRecord(record, shift));
      }
    } finally {
      if (!reader.done) await reader.cancel().catch(() => undefined);
      this.#retire(reader, shift);
    }
  }

  /**
   * The fused path of `parse`: every verified payload of `file` (or of a range of it) goes straight
   * from the read buffer into `batcher`, with no record object; yields what the batches each read
   * completes gave.
   * When `batcher` carries CRCs (`onError: 'fail'` only), each record's data CRC is left to the
   * batcher's handler (a parse worker) and the payload goes in with its stored CRC.
   */
  async *readInto<Out>(
    file: TfrecordFile,
    range: RecordRange | undefined,
    batcher: WireBatcher<Out>,
  ): AsyncGenerator<Out[]> {
    const byteShift = range?.start ?? 0;
    const indexShift = range?.firstRecord ?? 0;
    const shifted = byteShift !== 0 || indexShift !== 0;
    const policy = shifted ? new ShiftedPolicy(this.policy, range!) : this.policy;
    const name = file.name;
    const reader = new TfrecordReader(file.open(range), {
      ...this.#settings,
      file: name,
      policy,
      emit: false,
      verifyData: !batcher.carriesCrcs,
      take(buffer, start, end, recordIndex, byteOffset, dataCrc) {
        batcher.addRange(buffer, start, end, name, recordIndex + indexShift, byteOffset + byteShift, dataCrc);
      },
    });
    try {
      for (;;) {
        let records: TfRecord[] | undefined;
        try {
          records = await reader.read();
        } catch (error) {
          // A record or parse error: the batches completed before it still go out first, and a
          // record of the open batch whose carried data CRC fails comes before the reader's error.
          const batches = batcher.take();
          if (batches.length > 0) yield batches;
          batcher.checkOpen();
          throw error;
        }
        if (records === undefined) break;
        const batches = batcher.take();
        if (batches.length > 0) yield batches;
      }
    } finally {
      if (!reader.done) await reader.cancel().catch(() => undefined);
      this.#retire(reader, shifted ? range : undefined);
    }
  }

  /** Records, bytes, skips and lost byte ranges over everything read so far. */
  report(files: number): StageReport {
    return {
      stage: 'tfrecordDataset',
      records: this.#records,
      bytes: this.#bytes,
      skipped: this.policy.skipped,
      skippedErrors: [...this.policy.errors],
      details: { files, lostBytes: this.#lostBytes, lostRegions: this.#lostRegions, lost: [...this.#lost] },
    };
  }

  #retire(reader: TfrecordReader, shift: RecordRange | undefined): void {
    const unframer = reader.unframer;
    this.#records += unframer.records;
    this.#bytes += unframer.bytes;
    this.#lostBytes += unframer.lostBytes;
    this.#lostRegions += unframer.lostRegions;
    for (const region of unframer.lost.slice(0, MAX_LISTED_REGIONS - this.#lost.length)) {
      const by = shift?.start ?? 0;
      this.#lost.push(by === 0 ? region : { ...region, start: region.start + by, end: region.end + by });
    }
  }
}

function shiftPosition(position: Position, range: RecordRange): Position {
  return {
    ...position,
    ...(position.byteOffset === undefined ? {} : { byteOffset: position.byteOffset + range.start }),
    ...(position.recordIndex === undefined ? {} : { recordIndex: position.recordIndex + range.firstRecord }),
  };
}

/** A range's error at its place in the whole file. */
function shiftError(error: unknown, range: RecordRange): unknown {
  if (!TfpipeError.is(error)) return error;
  return new TfpipeError(error.code, error.detail, {
    position: shiftPosition(error.position, range),
    fatal: error.fatal,
    cause: error,
    ...(error.stage === undefined ? {} : { stage: error.stage }),
    ...(error.reason === undefined ? {} : { reason: error.reason }),
  });
}

function shiftRecord(record: TfRecord, range: RecordRange): TfRecord {
  const shifted = {
    data: record.data,
    file: record.file,
    recordIndex: record.recordIndex + range.firstRecord,
    byteOffset: record.byteOffset + range.start,
  };
  return withPosition(shifted, {
    file: shifted.file,
    recordIndex: shifted.recordIndex,
    byteOffset: shifted.byteOffset,
  });
}

/** The dataset's policy, seeing a range's errors at their place in the whole file. */
class ShiftedPolicy extends RecordErrorPolicy {
  readonly #shared: RecordErrorPolicy;
  readonly #range: RecordRange;

  constructor(shared: RecordErrorPolicy, range: RecordRange) {
    super({ onError: shared.onError });
    this.#shared = shared;
    this.#range = range;
  }

  override handle(error: unknown): void {
    this.#shared.handle(shiftError(error, this.#range));
  }
}

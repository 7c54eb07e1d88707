import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { DeferredOutput, RecordErrorPolicy } from '@tfpipe/core/plugin';
import { EncodedExample, releaseRecord } from '@tfpipe/core/internal';
import {
  FeatureStatsCollector,
  TfpipeError,
  isSequenceExample,
  type Example,
  type PayloadType,
  type SequenceExample,
  type ShardSummary,
  type StageReport,
} from '@tfpipe/core';
import { exampleCodec, type ExampleCodec } from './example-codec.js';
import { FRAME_OVERHEAD } from './frame-record.js';
import { writeError } from '@tfpipe/node-utils';
import { buildManifest, manifestPath } from './manifest-writer.js';
import { DIRECT_PAYLOAD_BYTES, ShardFile } from './shard-file.js';
import { checkOpenFiles } from './open-files.js';
import { checkTargets, previousOutputs } from './output-set.js';
import { releaseTemporary, removeStaleTemporaries, shardName, temporaryPath } from './shard-names.js';
import type { ResolvedSinkOptions } from './sink-options.js';

const STAGE = 'tfrecordSink';
/** Where an Example that carries its wire bytes keeps them (`ENCODED` in `@tfpipe/core`). */
const ENCODED = Symbol.for('tfpipe.encoded');
const MIN_SHARED_BUFFER = 256 * 1024;
/** Fixed shards share at most about this much buffer (each still gets {@link SMALLEST_BUFFER}). */
const SHARED_BUFFER_BUDGET = 64 * 1024 * 1024;
const SMALLEST_BUFFER = 16 * 1024;
/** Fixed shards beyond this many frame on this thread (see `#openShard`). */
const MAX_THREAD_SHARDS = 256;

/** A record the sink accepts. */
export type SinkInput = Example | SequenceExample | Uint8Array;

/** Copies payload bytes into the buffer (a `ValueWriter`). */
function writeBytes(bytes: Uint8Array, target: Uint8Array, offset: number): number {
  target.set(bytes, offset);
  return offset + bytes.length;
}

/** A record's payload when it already exists as bytes: raw bytes, or an Example that carries them. */
function bytesOf(record: SinkInput): Uint8Array | undefined {
  if (record instanceof Uint8Array) return record;
  const carried = (record as { [ENCODED]?: unknown })[ENCODED];
  return carried instanceof Uint8Array ? carried : undefined;
}

/** The state behind `tfrecordSink`: shards under temporary names until `close` renames them all. */
export class ShardedWriter {
  readonly #options: ResolvedSinkOptions;
  readonly #policy: RecordErrorPolicy;
  readonly #stats: FeatureStatsCollector | undefined;
  readonly #shards: ShardFile[] = [];
  readonly #finished = new Set<ShardFile>();
  readonly #summaries: ShardSummary[] = [];
  readonly #codec: ExampleCodec = exampleCodec;
  /**
   * The spans of values whose CRC a source knew (core's `withCrc32c`) that encoding the current
   * record found, `offset, length, crc` in the buffer: the framing then does not read them again
   * (`crc32cKnowing`). They never outlive the record, even when encoding it fails.
   */
  readonly #crcSpans: number[] = [];
  /** One writer for every Example (no closure per record). */
  readonly #encode = (value: Example | SequenceExample, target: Uint8Array, offset: number): number => {
    const crcSpans = this.#crcSpans;
    crcSpans.length = 0;
    try {
      return this.#codec.encodeInto(value, target, offset, crcSpans);
    } catch (error) {
      crcSpans.length = 0;
      throw error;
    }
  };
  #payloadType: PayloadType | undefined;
  #inputIndex = 0;
  #written = 0;
  #manifestTemporary: string | undefined;
  /** The old output `overwrite` replaces, found just before the renames. */
  #replaced: string[] = [];
  /** Temporaries of another host (or of an older tfpipe) left alone in the directory. */
  #foreignTemporaries: readonly string[] = [];
  #done = false;

  constructor(options: ResolvedSinkOptions, policy: RecordErrorPolicy) {
    this.#options = options;
    this.#policy = policy;
    this.#stats = options.manifest ? new FeatureStatsCollector() : undefined;
    this.#payloadType = options.payloadType;
  }

  /** Checks the output location and opens the first shard, so that a bad location fails at once. */
  async start(): Promise<void> {
    const { directory, sharding } = this.#options;
    if (sharding.mode === 'fixed') await checkOpenFiles(sharding.shards, STAGE);
    await this.#guard(directory, 'creating the output directory', async () => {
      await mkdir(directory, { recursive: true });
    });
    if (sharding.mode === 'single') {
      const info = await stat(sharding.path).catch(() => undefined);
      if (info?.isDirectory()) {
        throw new TfpipeError('OUTPUT_UNWRITABLE', 'output path is a directory', {
          stage: STAGE,
          fatal: true,
          position: { file: sharding.path },
        });
      }
    }
    await this.#checkExisting();
    const early = sharding.mode === 'fixed' ? this.#finalNames(sharding.shards) : [];
    await checkTargets(this.#options.manifest ? [...early, manifestPath(this.#options)] : early, true);
    const stale = await removeStaleTemporaries(directory, this.#options.prefix);
    this.#foreignTemporaries = stale.foreign;
    if (sharding.mode !== 'fixed') await this.#openShard();
  }

  /**
   * Encodes, frames and buffers one record. Synchronous (no promise) when the record fits in the
   * current buffer: per-record promises would cost more than the framing.
   */
  write(record: SinkInput): Promise<void> | undefined {
    // The common record, an Example `buildExamples` encoded with room for its frame, once the payload
    // type is settled and with no statistics to gather: it passes the checks below by construction.
    if (record instanceof EncodedExample && this.#stats === undefined && this.#payloadType === 'Example') {
      const length = record.byteLength;
      if (length < DIRECT_PAYLOAD_BYTES && record.frameRoom) {
        const shard = this.#readyShard(length + FRAME_OVERHEAD);
        if (shard?.tryAppendFramed(record.buffer, record.byteOffset, length) === true) {
          this.#inputIndex++;
          this.#written++;
          return undefined;
        }
      }
    }
    const recordIndex = this.#inputIndex++;
    let length: number;
    let value: Example | SequenceExample | undefined;
    try {
      value = this.#check(record);
      length = record instanceof Uint8Array ? record.length : this.#codec.encodedLength(record);
    } catch (error) {
      return this.#recordError(error, recordIndex, record);
    }
    if (length < DIRECT_PAYLOAD_BYTES) {
      const shard = this.#readyShard(length + FRAME_OVERHEAD);
      if (shard !== undefined) {
        try {
          const appended =
            record instanceof Uint8Array
              ? shard.tryAppendValue(length, record, writeBytes)
              : record instanceof EncodedExample && record.frameRoom
                ? shard.tryAppendFramed(record.buffer, record.byteOffset, length)
                : shard.tryAppendValue(length, record, this.#encode, this.#crcSpans);
          if (appended) {
            this.#accepted(value);
            releaseRecord(record);
            return undefined;
          }
        } catch (error) {
          return this.#recordError(error, recordIndex, record);
        }
      }
    }
    return this.#writeSlowly(record, length, value, recordIndex);
  }

  /**
   * Writes a record or a batch (an array of records), each record exactly as {@link write} would:
   * same bytes, its own record index and `onError` handling. A promise only when a record needed one.
   */
  writeChunk(chunk: SinkInput | readonly SinkInput[]): Promise<void> | undefined {
    return Array.isArray(chunk)
      ? this.#writeFrom(chunk as readonly SinkInput[], 0)
      : this.write(chunk as SinkInput);
  }

  #writeFrom(records: readonly SinkInput[], start: number): Promise<void> | undefined {
    for (let index = start; index < records.length; index++) {
      const pending = this.write(records[index]!);
      if (pending !== undefined) return this.#writeAfter(pending, records, index + 1);
    }
    return undefined;
  }

  /**
   * The rest of a batch once `pending` settles. A method of its own: a closure in the loop above
   * would capture its index, and V8 then allocates a context for every record.
   */
  #writeAfter(pending: Promise<void>, records: readonly SinkInput[], next: number): Promise<void> {
    return pending.then(() => this.#writeFrom(records, next));
  }

  async #writeSlowly(
    record: SinkInput,
    length: number,
    value: Example | SequenceExample | undefined,
    recordIndex: number,
  ): Promise<void> {
    try {
      const shard = await this.#shardFor(length + FRAME_OVERHEAD);
      try {
        const direct = length >= DIRECT_PAYLOAD_BYTES ? bytesOf(record) : undefined;
        if (direct !== undefined) {
          await shard.appendDirect(direct);
        } else if (record instanceof EncodedExample && record.frameRoom) {
          await shard.flush();
          if (!shard.tryAppendFramed(record.buffer, record.byteOffset, length))
            await shard.appendFramedDirect(record.buffer, record.byteOffset, length);
        } else {
          await shard.append(length, (target, offset) => this.#writePayload(record, target, offset));
        }
      } catch (error) {
        if (TfpipeError.is(error) && !error.fatal) return await this.#recordError(error, recordIndex, record);
        throw writeError(error, shard.settings.temporaryPath, STAGE, 'writing a shard');
      }
      this.#accepted(value);
      releaseRecord(record);
    } catch (error) {
      await this.abort();
      throw error;
    }
  }

  #writePayload(record: SinkInput, target: Uint8Array, offset: number): number {
    return record instanceof Uint8Array
      ? writeBytes(record, target, offset)
      : this.#codec.encodeInto(record, target, offset);
  }

  /**
   * A bad record: dropped under `onError: 'skip'` (and released, see core's `releaseRecord`);
   * otherwise the temporaries go and the error stands.
   */
  #recordError(error: unknown, recordIndex: number, record: SinkInput): Promise<void> | undefined {
    try {
      this.#policy.handle(TfpipeError.is(error) ? error.withPosition({ recordIndex }) : error);
      releaseRecord(record);
      return undefined;
    } catch (fatal) {
      return this.abort().then(() => {
        throw fatal;
      });
    }
  }

  #accepted(value: Example | SequenceExample | undefined): void {
    this.#written++;
    if (this.#stats !== undefined && value !== undefined) {
      this.#stats.add(value);
    }
  }

  /** The shard for the next record when no shard has to be opened or finished first. */
  #readyShard(frameBytes: number): ShardFile | undefined {
    const { sharding } = this.#options;
    if (sharding.mode === 'fixed') return this.#shards[this.#written % sharding.shards];
    const current = this.#shards.at(-1);
    if (current === undefined || sharding.mode === 'single' || current.records === 0) return current;
    if (current.records >= sharding.maxRecords || current.frameBytes + frameBytes > sharding.maxBytes)
      return undefined;
    return current;
  }

  /**
   * Finishes every shard, writes indexes and the manifest, then renames everything to its final
   * name and removes the old output it replaces, or, with `deferOutput`, hands that over.
   */
  async close(): Promise<void> {
    let output: DeferredOutput;
    try {
      const { sharding } = this.#options;
      if (sharding.mode === 'fixed') {
        while (this.#shards.length < sharding.shards) await this.#openShard();
      }
      for (const shard of this.#shards) await this.#finish(shard);
      const finals = this.#shards.map((_, index) => this.#finalPath(index, this.#shards.length));
      if (this.#options.manifest) await this.#writeManifest(finals);
      for (const [index, shard] of this.#shards.entries())
        this.#summaries.push({ path: finals[index]!, records: shard.records, bytes: shard.diskBytes });
      output = this.#deferred(finals);
    } catch (error) {
      await this.abort();
      throw error;
    }
    this.#done = true;
    if (this.#options.deferOutput !== undefined) {
      this.#options.deferOutput(output);
      return;
    }
    try {
      await output.check();
      await output.rename();
    } catch (error) {
      await output.discard();
      throw error;
    }
    await output.removeReplaced();
  }

  /** Closes handles and deletes every temporary not yet renamed. Never throws. */
  async abort(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    await this.#discard();
  }

  async #discard(): Promise<void> {
    for (const shard of this.#shards) await shard.discard();
    if (this.#manifestTemporary !== undefined) {
      await unlink(this.#manifestTemporary).catch(() => undefined);
      releaseTemporary(this.#manifestTemporary);
      this.#manifestTemporary = undefined;
    }
  }

  /** The finished files under temporary names, and how to put them in place. */
  #deferred(finals: readonly string[]): DeferredOutput {
    const index = this.#options.index;
    const targets = [
      ...finals,
      ...(index ? finals.map((final) => `${final}.idx`) : []),
      ...(this.#manifestTemporary === undefined ? [] : [manifestPath(this.#options)]),
    ];
    return {
      check: async () => {
        await this.#checkExisting();
        await checkTargets(targets, this.#options.overwrite);
        const kept = new Set(targets);
        this.#replaced = this.#options.overwrite
          ? (await previousOutputs(this.#options)).filter((path) => !kept.has(path))
          : [];
      },
      rename: async () => {
        for (const [position, shard] of this.#shards.entries()) {
          const final = finals[position]!;
          await this.#guard(final, 'renaming a finished shard', () =>
            shard.commit(final, index ? `${final}.idx` : undefined),
          );
        }
        const temporary = this.#manifestTemporary;
        if (temporary !== undefined) {
          const target = manifestPath(this.#options);
          await this.#guard(target, 'renaming the manifest', () => rename(temporary, target));
          releaseTemporary(temporary);
          this.#manifestTemporary = undefined;
        }
        await this.#syncDirectory();
      },
      removeReplaced: async () => {
        const removed: string[] = [];
        for (const path of this.#replaced) {
          await this.#guard(path, 'removing replaced output', () =>
            unlink(path).catch((error: unknown) => {
              if ((error as { code?: string }).code !== 'ENOENT') throw error;
            }),
          );
          removed.push(path);
        }
        this.#replaced = [];
        if (removed.length > 0) await this.#syncDirectory();
        return removed;
      },
      discard: () => this.#discard(),
    };
  }

  /** The stage report: records, bytes on disk, finished shards and the one being written. */
  report(): StageReport {
    const current = this.#shards.at(-1);
    const bytes = this.#shards.reduce((sum, shard) => sum + shard.diskBytes, 0);
    return {
      stage: STAGE,
      records: this.#written,
      bytes,
      skipped: this.#policy.skipped,
      skippedErrors: [...this.#policy.errors],
      shards: [...this.#summaries],
      ...(current === undefined || this.#summaries.length > 0
        ? {}
        : { currentShard: this.#workingName(this.#shards.length - 1) }),
      details: {
        compression: this.#options.compression,
        payloadType: this.#payloadType ?? 'Example',
        ...(this.#options.manifest ? { manifest: manifestPath(this.#options) } : {}),
        ...(this.#foreignTemporaries.length > 0 ? { foreignTemporaries: this.#foreignTemporaries } : {}),
      },
    };
  }

  /**
   * Checks a record's type (and payload type); returns what the manifest's statistics need: the
   * record, or the decoded bytes (only when a manifest is written).
   */
  #check(record: SinkInput): Example | SequenceExample | undefined {
    if (record instanceof Uint8Array) return this.#stats === undefined ? undefined : this.#decode(record);
    if (
      typeof record !== 'object' ||
      record === null ||
      !('features' in record || 'featureLists' in record)
    ) {
      throw new TfpipeError(
        'FEATURE_TYPE',
        `tfrecordSink takes an Example, a SequenceExample or a Uint8Array, got ${describe(record)}`,
        { stage: STAGE },
      );
    }
    const type: PayloadType = isSequenceExample(record) ? 'SequenceExample' : 'Example';
    this.#payloadType ??= type;
    if (type !== this.#payloadType) {
      throw new TfpipeError('FEATURE_TYPE', `got a ${type} where payloadType is ${this.#payloadType}`, {
        stage: STAGE,
      });
    }
    return record;
  }

  #decode(data: Uint8Array): Example | SequenceExample {
    const codec = this.#codec;
    this.#payloadType ??= 'Example';
    return this.#payloadType === 'SequenceExample'
      ? codec.decodeSequenceExample(data)
      : codec.decodeExample(data);
  }

  async #shardFor(frameBytes: number): Promise<ShardFile> {
    const { sharding } = this.#options;
    if (sharding.mode === 'fixed') {
      const index = this.#written % sharding.shards;
      while (this.#shards.length <= index) await this.#openShard();
      return this.#shards[index]!;
    }
    const current = this.#shards.at(-1)!;
    if (sharding.mode === 'single' || current.records === 0) return current;
    if (current.records >= sharding.maxRecords || current.frameBytes + frameBytes > sharding.maxBytes) {
      await this.#finish(current);
      return this.#openShard();
    }
    return current;
  }

  async #openShard(): Promise<ShardFile> {
    const { directory, sharding, index, compression, level, fsync, bufferBytes } = this.#options;
    const base = this.#workingName(this.#shards.length);
    // Many fixed shards each get less, so that their buffers together stay bounded.
    const shared =
      sharding.mode === 'fixed'
        ? Math.max(
            Math.floor(bufferBytes / sharding.shards),
            Math.min(
              MIN_SHARED_BUFFER,
              Math.max(SMALLEST_BUFFER, Math.floor(SHARED_BUFFER_BUDGET / sharding.shards)),
            ),
          )
        : bufferBytes;
    const settings = {
      temporaryPath: temporaryPath(directory, base),
      indexTemporaryPath: index ? temporaryPath(directory, `${base}.idx`) : undefined,
      compression,
      level,
      fsync,
      bufferBytes: Math.min(shared, bufferBytes),
      sha256: this.#options.manifest,
      // Each CRC-thread buffer is its own shared WebAssembly memory, which reserves gigabytes of
      // address space: thousands of them (one per fixed shard) exhaust it. Same bytes either way.
      crcThread:
        this.#options.crcThread && (sharding.mode !== 'fixed' || sharding.shards <= MAX_THREAD_SHARDS),
    };
    const shard = await this.#guard(settings.temporaryPath, 'creating a shard', () =>
      ShardFile.create(settings),
    );
    this.#shards.push(shard);
    return shard;
  }

  async #finish(shard: ShardFile): Promise<void> {
    if (this.#finished.has(shard)) return;
    this.#finished.add(shard);
    await this.#guard(shard.settings.temporaryPath, 'finishing a shard', () => shard.finish());
  }

  async #writeManifest(finals: readonly string[]): Promise<void> {
    const target = manifestPath(this.#options);
    const manifest = buildManifest(
      this.#shards,
      finals,
      this.#options,
      this.#payloadType ?? 'Example',
      this.#stats!.result(this.#payloadType ?? 'Example'),
    );
    const temporary = temporaryPath(
      this.#options.directory,
      target.slice(this.#options.directory.length + 1),
    );
    this.#manifestTemporary = temporary;
    await this.#guard(temporary, 'writing the manifest', async () => {
      const handle = await open(temporary, 'wx');
      try {
        await handle.writeFile(`${JSON.stringify(manifest, null, 2)}\n`);
        if (this.#options.fsync) await handle.datasync();
      } finally {
        await handle.close();
      }
    });
  }

  /** Without `overwrite`, the previous output of the same name or prefix is OUTPUT_EXISTS. */
  async #checkExisting(): Promise<void> {
    if (this.#options.overwrite) return;
    const [first] = await previousOutputs(this.#options);
    if (first !== undefined) {
      throw new TfpipeError('OUTPUT_EXISTS', 'output already exists (pass overwrite: true to replace it)', {
        stage: STAGE,
        fatal: true,
        position: { file: first },
      });
    }
  }

  async #syncDirectory(): Promise<void> {
    if (!this.#options.fsync) return;
    const handle = await open(this.#options.directory, 'r').catch(() => undefined);
    if (handle === undefined) return;
    // Persists the renames; some platforms cannot sync a directory, and that is not an error worth failing for.
    await handle.sync().catch(() => undefined);
    await handle.close();
  }

  #finalNames(count: number): string[] {
    return Array.from({ length: count }, (_, index) => this.#finalPath(index, count));
  }

  #finalPath(index: number, count: number): string {
    const { sharding, directory, prefix, suffix } = this.#options;
    return sharding.mode === 'single'
      ? sharding.path
      : join(directory, shardName(prefix, index, count, suffix));
  }

  #workingName(index: number): string {
    const { sharding, prefix, suffix } = this.#options;
    return sharding.mode === 'single' ? prefix : `${prefix}-${String(index).padStart(5, '0')}${suffix}`;
  }

  async #guard<T>(file: string, doing: string, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      throw writeError(error, file, STAGE, doing);
    }
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object without features or featureLists' : typeof value;
}

import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { FRAME_OVERHEAD } from './frame-record.js';
import { FrameBuffers, type PayloadWriter, type ValueWriter } from './frame-buffers.js';
import { ShardOutput } from './shard-output.js';
import { releaseTemporary } from './shard-names.js';
import type { TfrecordCompression } from './tf-record.js';

export type { PayloadWriter, ValueWriter } from './frame-buffers.js';

/**
 * From this many payload bytes up, a payload that already exists as bytes is written from where it
 * is (header, payload, trailer in one `writev`) instead of being copied into the buffer.
 */
export const DIRECT_PAYLOAD_BYTES = 256 * 1024;

/**
 * Bytes written between two background syncs of a file that is synced at its end: the kernel then
 * writes the file back while records are still being made, and the final sync waits only for the
 * last of them instead of the whole file. @default 32 MiB
 */
export const WRITEBACK_BYTES = 32 * 1024 * 1024;

/** What one shard needs to know. */
export interface ShardFileSettings {
  readonly temporaryPath: string;
  readonly indexTemporaryPath: string | undefined;
  readonly compression: TfrecordCompression;
  readonly level: number;
  readonly bufferBytes: number;
  readonly fsync: boolean;
  /** Compute the file's SHA-256 (for the manifest). */
  readonly sha256: boolean;
  /** Compute the CRCs of full buffers on the CRC thread (see `crc-thread.ts`). */
  readonly crcThread: boolean;
}

/**
 * One output file while it is written, under a temporary name: its records go through
 * {@link FrameBuffers}, and it counts them, keeps the DALI index and finishes, renames or deletes the
 * file. Nothing appears under a final name before {@link ShardFile.commit}.
 */
export class ShardFile {
  records = 0;
  /** Framed (uncompressed) bytes, which is also the offset of the next record. */
  frameBytes = 0;
  readonly settings: ShardFileSettings;
  readonly #handle: FileHandle;
  readonly #output: ShardOutput;
  readonly #frames: FrameBuffers;
  #index: string[] = [];
  #sha256 = '';
  #closed = false;
  /** {@link diskBytes} when the last background sync started. */
  #syncStartedAt = 0;
  /** The background sync under way, if any. */
  #writeback: Promise<void> | undefined;
  /** A background sync's failure, reported by {@link finish} (the kernel reports it only once). */
  #writebackFailure: { error: unknown } | undefined;

  private constructor(handle: FileHandle, settings: ShardFileSettings) {
    this.settings = settings;
    this.#handle = handle;
    this.#output = new ShardOutput(handle, settings.compression, settings.level, settings.sha256);
    this.#frames = new FrameBuffers(this.#output, settings.bufferBytes, settings.crcThread);
  }

  /** Creates the temporary file (exclusively: it never replaces anything). */
  static async create(settings: ShardFileSettings): Promise<ShardFile> {
    const handle = await open(settings.temporaryPath, 'wx');
    return new ShardFile(handle, settings);
  }

  /** Bytes on disk so far. */
  get diskBytes(): number {
    return this.#output.diskBytes;
  }

  /** SHA-256 of the file, hex, once finished. */
  get sha256(): string {
    return this.#sha256;
  }

  /**
   * Frames one payload into the buffer when it fits without a flush: the synchronous fast path.
   * @returns false (and does nothing) when the caller must use {@link append}.
   */
  tryAppend(length: number, writePayload: PayloadWriter): boolean {
    return this.#frames.tryAppend(length, writePayload) && this.#counted(length);
  }

  /**
   * {@link tryAppend} for a value and a writer shared by all records (no closure per record).
   * @param crcSpans - where `write` notes values with a known CRC (see `crc32cKnowing`); emptied
   */
  tryAppendValue<T>(length: number, value: T, write: ValueWriter<T>, crcSpans?: number[]): boolean {
    return this.#frames.tryAppendValue(length, value, write, crcSpans) && this.#counted(length);
  }

  /**
   * A record with room for its frame (`EncodedExample.frameRoom`), without a flush.
   * @returns false (and does nothing) when the pending output is full: {@link flush} first, or
   * {@link appendFramedDirect} when it is larger than a buffer.
   */
  tryAppendFramed(buffer: Uint8Array, offset: number, length: number): boolean {
    return this.#frames.tryAppendFramed(buffer, offset, length) && this.#counted(length);
  }

  /** Writes out what is pending (the buffer swaps; the write itself may still be running). */
  async flush(): Promise<void> {
    await this.#frames.flush();
    this.#startWriteback();
  }

  /** A record with frame room that does not fit a buffer: framed in its room, written from there. */
  async appendFramedDirect(buffer: Uint8Array, offset: number, length: number): Promise<void> {
    await this.#frames.appendFramedDirect(buffer, offset, length);
    this.#counted(length);
    this.#startWriteback();
  }

  /**
   * Frames a payload that already exists as bytes and writes it from where it is (one `writev`).
   * The promise settles once `payload` is written, so the caller may reuse it afterwards.
   */
  async appendDirect(payload: Uint8Array): Promise<void> {
    await this.#frames.appendDirect(payload);
    this.#counted(payload.length);
    this.#startWriteback();
  }

  /** Frames one payload of `length` bytes, written by `writePayload` in place. */
  async append(length: number, writePayload: PayloadWriter): Promise<void> {
    await this.#frames.append(length, writePayload);
    this.#counted(length);
    this.#startWriteback();
  }

  /** Counts one record of `length` payload bytes (and indexes it); true, for `&&` chains. */
  #counted(length: number): true {
    const frameBytes = length + FRAME_OVERHEAD;
    if (this.settings.indexTemporaryPath !== undefined)
      this.#index.push(`${this.frameBytes} ${frameBytes}\n`);
    this.records++;
    this.frameBytes += frameBytes;
    return true;
  }

  /**
   * Starts a background `datasync` once {@link WRITEBACK_BYTES} more reached the file, when it is
   * synced at its end; one at a time. Called after each buffer goes out, never per record.
   */
  #startWriteback(): void {
    if (!this.settings.fsync || this.#writeback !== undefined) return;
    if (this.diskBytes - this.#syncStartedAt < WRITEBACK_BYTES) return;
    this.#syncStartedAt = this.diskBytes;
    this.#writeback = this.#handle.datasync().then(
      () => {
        this.#writeback = undefined;
      },
      (error: unknown) => {
        this.#writeback = undefined;
        this.#writebackFailure ??= { error };
      },
    );
  }

  /** Flushes everything, ends compression, syncs and closes the file (still under its temporary name). */
  async finish(): Promise<void> {
    await this.#frames.drain();
    this.#frames.release();
    await this.#output.finish();
    this.#sha256 = this.#output.digest();
    await this.#writeback;
    if (this.#writebackFailure !== undefined) throw this.#writebackFailure.error;
    if (this.settings.fsync) await this.#handle.datasync();
    this.#closed = true;
    await this.#handle.close();
    const indexPath = this.settings.indexTemporaryPath;
    if (indexPath !== undefined) {
      const index = await open(indexPath, 'wx');
      try {
        await index.writeFile(this.#index.join(''));
        if (this.settings.fsync) await index.datasync();
      } finally {
        await index.close();
      }
      this.#index = [];
    }
  }

  /** Renames the finished file (and its index) to the final names. */
  async commit(finalPath: string, indexPath: string | undefined): Promise<void> {
    await rename(this.settings.temporaryPath, finalPath);
    releaseTemporary(this.settings.temporaryPath);
    if (this.settings.indexTemporaryPath !== undefined && indexPath !== undefined) {
      await rename(this.settings.indexTemporaryPath, indexPath);
      releaseTemporary(this.settings.indexTemporaryPath);
    }
  }

  /** Closes the file if open and deletes the temporaries. Never throws. */
  async discard(): Promise<void> {
    this.#output.destroy();
    await this.#frames.settle();
    await this.#writeback;
    if (!this.#closed) {
      this.#closed = true;
      await this.#handle.close().catch(() => undefined);
    }
    for (const path of [this.settings.temporaryPath, this.settings.indexTemporaryPath]) {
      if (path === undefined) continue;
      await unlink(path).catch(() => undefined);
      releaseTemporary(path);
    }
  }
}

import { createHash, type Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { createDeflate, createGzip, type Deflate, type Gzip } from 'node:zlib';
import type { TfrecordCompression } from './tf-record.js';

/**
 * Where a shard's framed bytes go: straight to the file, or through a node:zlib compressor first.
 * Counts and hashes (SHA-256) the bytes that reach the disk while it writes them.
 */
export class ShardOutput {
  /** Bytes written to the file (after compression). */
  diskBytes = 0;
  readonly #handle: FileHandle;
  // Only when a manifest wants it: SHA-256 is slower than the framing and the write.
  readonly #hash: Hash | undefined;
  readonly #compressor: Gzip | Deflate | undefined;
  #chain: Promise<void> = Promise.resolve();
  #failure: unknown;
  #hasFailure = false;

  constructor(handle: FileHandle, compression: TfrecordCompression, level: number, hash = true) {
    this.#handle = handle;
    this.#hash = hash ? createHash('sha256') : undefined;
    if (compression === 'none') return;
    this.#compressor = compression === 'gzip' ? createGzip({ level }) : createDeflate({ level });
    this.#compressor.on('data', (chunk: Buffer) => {
      this.#chain = this.#chain.then(() => this.#writeFile(chunk));
      this.#chain.catch((error: unknown) => this.#fail(error));
    });
    this.#compressor.on('error', (error) => this.#fail(error));
  }

  /**
   * The file's descriptor when bytes go to the file as they are (no compressor, no hash), so that
   * another thread may write them: it must write in this output's order (never while a write of
   * this object is under way) and report each write through {@link countWritten}.
   */
  get directFd(): number | undefined {
    return this.#compressor === undefined && this.#hash === undefined && !this.#hasFailure
      ? this.#handle.fd
      : undefined;
  }

  /** Counts `length` bytes another thread wrote to the file through {@link directFd}. */
  countWritten(length: number): void {
    this.diskBytes += length;
  }

  /** Writes framed bytes. The caller may reuse `chunk` once the promise settles. */
  async write(chunk: Uint8Array): Promise<void> {
    this.#check();
    const compressor = this.#compressor;
    if (compressor === undefined) return this.#writeFile(chunk);
    await new Promise<void>((resolve, reject) => {
      compressor.write(chunk, (error) => (error ? reject(error) : resolve()));
    });
    await this.#chain;
    this.#check();
  }

  /** Writes several chunks in order, with one `writev` when uncompressed. */
  async writev(chunks: readonly Uint8Array[]): Promise<void> {
    this.#check();
    if (this.#compressor !== undefined) {
      for (const chunk of chunks) await this.write(chunk);
      return;
    }
    const { bytesWritten } = await this.#handle.writev(chunks as Uint8Array[]);
    let skip = bytesWritten;
    for (const chunk of chunks) {
      // A short writev: the rest goes out with plain writes.
      if (skip < chunk.length) {
        let offset = skip;
        while (offset < chunk.length) {
          const written = await this.#handle.write(chunk, offset, chunk.length - offset, null);
          offset += written.bytesWritten;
        }
      }
      skip = Math.max(0, skip - chunk.length);
      this.#hash?.update(chunk);
      this.diskBytes += chunk.length;
    }
  }

  /** Ends the compressed stream (if any) and waits until every byte is in the file. */
  async finish(): Promise<void> {
    const compressor = this.#compressor;
    if (compressor !== undefined) {
      await new Promise<void>((resolve, reject) => {
        compressor.once('end', resolve);
        compressor.once('error', reject);
        compressor.end();
        compressor.resume();
      });
      await this.#chain;
    }
    this.#check();
  }

  /** The SHA-256 of the bytes on disk, hex ('' when not hashing). Call once, after {@link finish}. */
  digest(): string {
    return this.#hash?.digest('hex') ?? '';
  }

  /** Stops the compressor without flushing (abort). */
  destroy(): void {
    this.#compressor?.destroy();
  }

  async #writeFile(chunk: Uint8Array): Promise<void> {
    let offset = 0;
    while (offset < chunk.length) {
      const { bytesWritten } = await this.#handle.write(chunk, offset, chunk.length - offset, null);
      offset += bytesWritten;
    }
    this.#hash?.update(chunk);
    this.diskBytes += chunk.length;
  }

  #fail(error: unknown): void {
    if (this.#hasFailure) return;
    this.#hasFailure = true;
    this.#failure = error;
  }

  #check(): void {
    if (this.#hasFailure) throw this.#failure;
  }
}

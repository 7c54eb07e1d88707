import {
  releasePlainBuffers,
  releaseSharedFrameBuffers,
  takePlainBuffer,
  takeSharedFrameBuffers,
  type SharedFrameBuffers,
} from './shared-buffers.js';

/**
 * One file's write buffers: the spare plain buffer (the one whose write runs while the next fills)
 * and the shared-memory buffers the CRC thread has framed and given back. New ones come from the
 * process-wide pools of shared-buffers.ts, and all go back there when the file is finished. Internal.
 */
export class WriteBufferPool {
  /** Size of every buffer, bytes. */
  readonly size: number;
  #spare: Uint8Array | undefined;
  /** Shared buffers written and free again, with their frame tables. */
  #free: SharedFrameBuffers[] = [];
  /** Shared buffers this file has taken in all. */
  #sharedCount = 0;

  constructor(size: number) {
    this.size = size;
  }

  /** Shared buffers this file has taken in all (free, filling or being written). */
  get sharedCount(): number {
    return this.#sharedCount;
  }

  /** Whether a shared buffer of this file's is free. */
  get hasFreeShared(): boolean {
    return this.#free.length > 0;
  }

  /** A plain buffer from the process-wide pool. */
  takePlain(): Uint8Array {
    return takePlainBuffer(this.size);
  }

  /**
   * A shared buffer: one of this file's that is free again first (a file that goes back and forth
   * between large and small records would otherwise take a new one at each switch), else a new one.
   */
  takeShared(): SharedFrameBuffers {
    const free = this.#free.pop();
    if (free !== undefined) return free;
    this.#sharedCount++;
    return takeSharedFrameBuffers(this.size);
  }

  /** One of this file's free shared buffers, if any. */
  takeFreeShared(): SharedFrameBuffers | undefined {
    return this.#free.pop();
  }

  /** A shared buffer written and no longer held by the CRC thread: free for this file's next records. */
  giveBack(buffers: SharedFrameBuffers): void {
    this.#free.push(buffers);
  }

  /** Keeps `buffer`, being written, as the spare: the next plain buffer once its write is done. */
  keepSpare(buffer: Uint8Array): void {
    this.#spare = buffer;
  }

  /** The spare, which is forgotten here (undefined when there is none). */
  takeSpare(): Uint8Array | undefined {
    const spare = this.#spare;
    this.#spare = undefined;
    return spare;
  }

  /**
   * Gives every idle buffer back to the process-wide pools, with the file's current buffers when
   * they are empty (`idleShared`, `idlePlain`). After a drain that succeeded only: nothing holds
   * them then. The pool must not be used afterwards.
   */
  release(idleShared: SharedFrameBuffers | undefined, idlePlain: Uint8Array | undefined): void {
    const shared = [...this.#free];
    if (idleShared !== undefined) shared.push(idleShared);
    this.#free = [];
    releaseSharedFrameBuffers(shared);
    // The spare's write was waited for.
    const plain = this.#spare === undefined ? [] : [this.#spare];
    if (idlePlain !== undefined) plain.push(idlePlain);
    this.#spare = undefined;
    releasePlainBuffers(plain);
  }
}

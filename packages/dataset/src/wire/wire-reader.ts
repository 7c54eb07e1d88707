import { WireCursor } from '@tfpipe/core/internal';

/**
 * Core's bounds-checked protobuf cursor ({@link WireCursor}: its rules, errors and int64 halves),
 * made once and pointed at each record in turn. Every failure is a `PROTO_DECODE` TfpipeError at
 * the byte offset where the bad element starts.
 */
export class WireReader extends WireCursor {
  constructor() {
    super(new Uint8Array(0), 'Example');
  }

  /** Starts reading `bytes` from its first byte. */
  reset(bytes: Uint8Array): void {
    // A Buffer (a Uint8Array subclass) is read through a plain view: V8 indexes and subarrays the
    // subclass several times slower, and Buffer#slice would share memory instead of copying.
    this.bytes =
      bytes.constructor === Uint8Array
        ? bytes
        : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.position = 0;
  }
}

import { crc32c, type Crc32cFunction } from './crc32c.js';
import { frameRecord } from './frame-record.js';

/** Options of {@link frameRecords}. */
export interface FrameRecordsOptions {
  /** The CRC-32C implementation (the Node entry passes its native-backed one). @default the JS `crc32c` */
  readonly crc32c?: Crc32cFunction;
}

/**
 * A `TransformStream` from record payloads to their TFRecord frames, one frame per chunk. Pipe the
 * result through `new CompressionStream('gzip')` (TensorFlow's `GZIP`) or `('deflate')` (`ZLIB`) to
 * compress the whole file stream as TensorFlow does.
 */
export function frameRecords(options: FrameRecordsOptions = {}): TransformStream<Uint8Array, Uint8Array> {
  const crc = options.crc32c ?? crc32c;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(data, controller) {
      controller.enqueue(frameRecord(data, crc));
    },
  });
}

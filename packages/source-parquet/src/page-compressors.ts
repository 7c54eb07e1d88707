import { TfpipeError } from '@tfpipe/core';
import { Decompress as ZstdStream } from 'fzstd';
import type { Compressors } from 'hyparquet';
import { snappyUncompress } from 'hyparquet';
// The codecs one by one: the package entry also builds hysnappy's WebAssembly instance when it is
// imported, which reserves ~10 GB of address space and so throws under `ulimit -v` of 8 GB.
import { decompressBrotli } from 'hyparquet-compressors/src/brotli.js';
import { gunzip } from 'hyparquet-compressors/src/gzip.js';
import { decompressLz4, decompressLz4Raw } from 'hyparquet-compressors/src/lz4.js';
import { snappyUncompressor } from 'hysnappy';

type Decompress = (input: Uint8Array, outputLength: number) => Uint8Array;

/**
 * The uncompressed length a snappy stream states in its preamble (a varint of at most 5 bytes), or
 * undefined when the bytes end or the varint runs on.
 */
export function snappyPreamble(bytes: Uint8Array, start = 0, end = bytes.length): number | undefined {
  let length = 0;
  let scale = 1;
  for (let index = start; index < Math.min(end, start + 5); index++) {
    const byte = bytes[index] as number;
    length += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) return length;
    scale *= 128;
  }
  return undefined;
}

/** The WebAssembly snappy decoder, built on first use; null where it cannot be (no address space). */
let wasmSnappy: Decompress | null | undefined;

function snappy(input: Uint8Array, outputLength: number): Uint8Array {
  if (wasmSnappy === undefined) {
    try {
      wasmSnappy = snappyUncompressor();
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      wasmSnappy = null;
    }
  }
  if (wasmSnappy !== null) {
    try {
      return wasmSnappy(input, outputLength);
    } catch (error) {
      // Growing the WebAssembly memory can fail where a plain buffer of the same size does not.
      if (!(error instanceof RangeError)) throw error;
    }
  }
  // hyparquet's own decoder: slower, but it needs no address space beyond its output.
  const output = new Uint8Array(outputLength);
  snappyUncompress(input, output);
  return output;
}

/**
 * fzstd's one-shot decoder sizes its output by the frame's own claims (content or window size) and
 * keeps every block: a few kilobytes of frame could claim or produce gigabytes. Streamed here into
 * the page's buffer instead, stopping as soon as the data outgrows what the page header says.
 */
function zstd(input: Uint8Array, outputLength: number): Uint8Array {
  const output = new Uint8Array(outputLength);
  let written = 0;
  const stream = new ZstdStream((chunk) => {
    if (written + chunk.length > outputLength)
      throw new Error(`zstd data holds more than the ${outputLength} bytes the page header says`);
    output.set(chunk, written);
    written += chunk.length;
  });
  stream.push(input, true);
  if (written !== outputLength)
    throw new Error(`zstd data holds ${written} bytes, the page header says ${outputLength}`);
  return output;
}

const CODECS: Readonly<Record<string, Decompress>> = {
  SNAPPY: snappy,
  GZIP: (input, outputLength) => gunzip(input, new Uint8Array(outputLength)),
  BROTLI: decompressBrotli,
  ZSTD: zstd,
  LZ4: decompressLz4,
  LZ4_RAW: decompressLz4Raw,
};

/**
 * hyparquet's decompressors, each refusing a page whose header claims more than `maxPageBytes`
 * before anything is allocated. Page headers are checked earlier with their position
 * (`checkPageHeaders`); this catches pages read without their whole column chunk.
 */
export function pageCompressors(maxPageBytes: number): Compressors {
  const guarded: Compressors = {};
  for (const [codec, decompress] of Object.entries(CODECS)) {
    guarded[codec as keyof Compressors] = (input, outputLength) => {
      if (outputLength > maxPageBytes) throw pageTooLarge(outputLength, maxPageBytes);
      if (codec === 'SNAPPY') {
        const stated = snappyPreamble(input);
        if (stated !== outputLength)
          throw new Error(`snappy data holds ${String(stated)} bytes, the page header says ${outputLength}`);
      }
      return decompress(input, outputLength);
    };
  }
  return guarded;
}

/** The error for a page over `maxPageBytes` (position added by whoever knows it). */
export function pageTooLarge(claimed: number, maxPageBytes: number): TfpipeError {
  return new TfpipeError('PARQUET_UNSUPPORTED', 'page too large to decode', {
    stage: 'parquetSource',
    reason: `the page header claims ${claimed} bytes uncompressed, over maxPageBytes (${maxPageBytes})`,
  });
}

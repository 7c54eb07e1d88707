import { TfpipeError } from '@tfpipe/core';
import type { FileMetaData } from 'hyparquet';

/** Where one column chunk lies in the file, from the footer. */
export interface ColumnChunkRange {
  readonly start: number;
  readonly end: number;
  readonly rowGroup: number;
  readonly column: string;
}

const DATA_PAGE_V2 = 3;
const MAX_DEPTH = 32;

/** The byte range of every column chunk the footer describes (ranges it cannot state are left out). */
export function columnChunkRanges(metadata: FileMetaData): ColumnChunkRange[] {
  const ranges: ColumnChunkRange[] = [];
  metadata.row_groups.forEach((group, rowGroup) => {
    for (const chunk of group.columns) {
      const meta = chunk.meta_data;
      if (meta === undefined) continue;
      const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
      const end = start + Number(meta.total_compressed_size);
      if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) continue;
      ranges.push({ start, end, rowGroup, column: meta.path_in_schema.join('.') });
    }
  });
  return ranges;
}

/**
 * Walks the page headers of every column chunk that `bytes` (read at `offset`) holds whole, and
 * returns a `PARQUET_FORMAT` error for a `DATA_PAGE_V2` header without its level byte lengths.
 * hyparquet 1.31 then reads at offset `NaN`, which DataView treats as 0 without advancing, and loops
 * forever synchronously: no timeout or cancel can stop it, so such a page must never reach it.
 * Headers this walker cannot parse are left to hyparquet, which rejects them with its own error.
 */
export function checkPageHeaders(
  bytes: Uint8Array,
  offset: number,
  chunks: readonly ColumnChunkRange[],
  file: string,
): TfpipeError | undefined {
  const end = offset + bytes.length;
  for (const chunk of chunks) {
    if (chunk.start < offset || chunk.end > end) continue;
    let position = chunk.start - offset;
    const limit = chunk.end - offset;
    while (position < limit) {
      const reader = new CompactReader(bytes, position, limit);
      const header = reader.pageHeader();
      if (header === undefined) break;
      if (header.type === DATA_PAGE_V2) {
        const levels = [header.definitionLevelsLength, header.repetitionLevelsLength];
        if (levels.some((length) => length === undefined || length < 0)) {
          return new TfpipeError('PARQUET_FORMAT', 'corrupt page header', {
            stage: 'parquetSource',
            position: { file, rowGroup: chunk.rowGroup, field: chunk.column, byteOffset: offset + position },
            reason: 'a DATA_PAGE_V2 header lacks its definition or repetition levels byte length',
          });
        }
      }
      if (header.compressedSize === undefined || header.compressedSize < 0) break;
      position = reader.position + header.compressedSize;
    }
  }
  return undefined;
}

interface PageHeaderFields {
  type: number | undefined;
  compressedSize: number | undefined;
  definitionLevelsLength: number | undefined;
  repetitionLevelsLength: number | undefined;
}

/** Just enough of Thrift's compact protocol to read a `PageHeader`; `undefined` where it cannot. */
class CompactReader {
  position: number;
  readonly #bytes: Uint8Array;
  readonly #limit: number;

  constructor(bytes: Uint8Array, position: number, limit: number) {
    this.#bytes = bytes;
    this.position = position;
    this.#limit = limit;
  }

  pageHeader(): PageHeaderFields | undefined {
    const header: PageHeaderFields = {
      type: undefined,
      compressedSize: undefined,
      definitionLevelsLength: undefined,
      repetitionLevelsLength: undefined,
    };
    const ok = this.#struct(0, (id, type) => {
      if (id === 1 && type === 5) header.type = this.#int();
      else if (id === 3 && type === 5) header.compressedSize = this.#int();
      else if (id === 8 && type === 12) {
        return this.#struct(1, (inner, innerType) => {
          if (inner === 5 && innerType === 5) header.definitionLevelsLength = this.#int();
          else if (inner === 6 && innerType === 5) header.repetitionLevelsLength = this.#int();
          else return this.#skip(innerType, 2);
          return true;
        });
      } else return this.#skip(type, 1);
      return true;
    });
    return ok ? header : undefined;
  }

  #byte(): number | undefined {
    if (this.position >= this.#limit) return undefined;
    return this.#bytes[this.position++];
  }

  #varint(): number | undefined {
    let result = 0;
    let scale = 1;
    for (let count = 0; count < 10; count++) {
      const byte = this.#byte();
      if (byte === undefined) return undefined;
      result += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) return result;
      scale *= 128;
    }
    return undefined;
  }

  #int(): number | undefined {
    const raw = this.#varint();
    if (raw === undefined) return undefined;
    return raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
  }

  /** Reads fields until STOP, handing each to `field`; false when the bytes end or make no sense. */
  #struct(depth: number, field: (id: number, type: number) => boolean): boolean {
    if (depth > MAX_DEPTH) return false;
    let id = 0;
    for (;;) {
      const head = this.#byte();
      if (head === undefined) return false;
      const type = head & 0x0f;
      if (type === 0) return true;
      const delta = head >> 4;
      if (delta === 0) {
        const explicit = this.#int();
        if (explicit === undefined) return false;
        id = explicit;
      } else id += delta;
      if (!field(id, type)) return false;
    }
  }

  #skip(type: number, depth: number): boolean {
    if (depth > MAX_DEPTH) return false;
    switch (type) {
      case 1:
      case 2:
        return true;
      case 3:
        return this.#byte() !== undefined;
      case 4:
      case 5:
      case 6:
        return this.#varint() !== undefined;
      case 7:
        this.position += 8;
        return this.position <= this.#limit;
      case 8: {
        const length = this.#varint();
        if (length === undefined) return false;
        this.position += length;
        return this.position <= this.#limit;
      }
      case 9:
      case 10: {
        const head = this.#byte();
        if (head === undefined) return false;
        const size = head >> 4 === 15 ? this.#varint() : head >> 4;
        if (size === undefined) return false;
        const elementType = head & 0x0f;
        for (let index = 0; index < size; index++) {
          if (elementType === 1 || elementType === 2) {
            if (this.#byte() === undefined) return false;
          } else if (!this.#skip(elementType, depth + 1)) return false;
        }
        return true;
      }
      case 11: {
        const size = this.#varint();
        if (size === undefined) return false;
        if (size === 0) return true;
        const types = this.#byte();
        if (types === undefined) return false;
        for (let index = 0; index < size; index++) {
          if (!this.#skip(types >> 4, depth + 1) || !this.#skip(types & 0x0f, depth + 1)) return false;
        }
        return true;
      }
      case 12:
        return this.#struct(depth + 1, (_id, inner) => this.#skip(inner, depth + 1));
      default:
        return false;
    }
  }
}

/** Bounds the recursion of skipped nested structs and lists. */
const MAX_DEPTH = 32;

/** The fields of a Parquet `PageHeader` the checks need; each undefined when the header lacks it. */
export interface PageHeaderFields {
  /** `PageType`: 0 DATA_PAGE, 2 DICTIONARY_PAGE, 3 DATA_PAGE_V2. */
  type: number | undefined;
  /** `uncompressed_page_size`, bytes (levels included in a v2 page). */
  uncompressedSize: number | undefined;
  /** `compressed_page_size`, bytes. */
  compressedSize: number | undefined;
  /** `num_values` of a data page (v1 or v2). */
  values: number | undefined;
  /** `definition_levels_byte_length` of a v2 page. */
  definitionLevelsLength: number | undefined;
  /** `repetition_levels_byte_length` of a v2 page. */
  repetitionLevelsLength: number | undefined;
  /** `is_compressed` of a v2 page (Thrift default true). */
  compressed: boolean;
}

/** Just enough of Thrift's compact protocol to read a `PageHeader`; `undefined` where it cannot. */
export class CompactReader {
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
      uncompressedSize: undefined,
      compressedSize: undefined,
      values: undefined,
      definitionLevelsLength: undefined,
      repetitionLevelsLength: undefined,
      compressed: true,
    };
    const ok = this.#struct(0, (id, type) => {
      if (id === 1 && type === 5) header.type = this.#int();
      else if (id === 2 && type === 5) header.uncompressedSize = this.#int();
      else if (id === 3 && type === 5) header.compressedSize = this.#int();
      else if (id === 5 && type === 12) {
        return this.#struct(1, (inner, innerType) => {
          if (inner === 1 && innerType === 5) header.values = this.#int();
          else return this.#skip(innerType, 2);
          return true;
        });
      } else if (id === 8 && type === 12) {
        return this.#struct(1, (inner, innerType) => {
          if (inner === 1 && innerType === 5) header.values = this.#int();
          else if (inner === 5 && innerType === 5) header.definitionLevelsLength = this.#int();
          else if (inner === 6 && innerType === 5) header.repetitionLevelsLength = this.#int();
          // A compact-protocol bool lives in its field type: 1 true, 2 false.
          else if (inner === 7 && (innerType === 1 || innerType === 2)) header.compressed = innerType === 1;
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

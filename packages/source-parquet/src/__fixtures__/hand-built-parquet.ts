// Parquet files built byte by byte, so a test can state exactly what a hostile file claims (a page
// header's sizes, a schema's depth) without any writer's checks in the way.

/** Thrift compact protocol field types used here. */
const I32 = 5;
const I64 = 6;
const BINARY = 8;
const LIST = 9;
const STRUCT = 12;

/** One Thrift field: id, compact type and value (a struct is a field list, a list is typed items). */
type Field =
  | readonly [id: number, type: typeof I32 | typeof I64, value: number]
  | readonly [id: number, type: typeof BINARY, value: string]
  | readonly [id: number, type: typeof STRUCT, value: readonly Field[]]
  | readonly [id: number, type: typeof LIST, value: ListValue];

type ListValue =
  | { readonly items: typeof I32; readonly values: readonly number[] }
  | { readonly items: typeof BINARY; readonly values: readonly string[] }
  | { readonly items: typeof STRUCT; readonly values: readonly (readonly Field[])[] };

class CompactWriter {
  readonly bytes: number[] = [];

  varint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.bytes.push((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    this.bytes.push(rest);
  }

  /** Zigzag without 32-bit operators, so a hostile header may claim sizes up to 2^53. */
  zigzag(value: number): void {
    this.varint(value >= 0 ? value * 2 : -value * 2 - 1);
  }

  struct(fields: readonly Field[]): void {
    let last = 0;
    for (const [id, type, value] of fields) {
      const delta = id - last;
      if (delta > 0 && delta <= 15) this.bytes.push((delta << 4) | type);
      else {
        this.bytes.push(type);
        this.zigzag(id);
      }
      last = id;
      this.value(type, value);
    }
    this.bytes.push(0);
  }

  value(type: number, value: Field[2]): void {
    if (type === I32 || type === I64) this.zigzag(value as number);
    else if (type === BINARY) {
      const text = new TextEncoder().encode(value as string);
      this.varint(text.length);
      this.bytes.push(...text);
    } else if (type === STRUCT) this.struct(value as readonly Field[]);
    else {
      const list = value as ListValue;
      const size = list.values.length;
      if (size < 15) this.bytes.push((size << 4) | list.items);
      else {
        this.bytes.push(0xf0 | list.items);
        this.varint(size);
      }
      for (const item of list.values) this.value(list.items, item);
    }
  }
}

function thrift(fields: readonly Field[]): number[] {
  const writer = new CompactWriter();
  writer.struct(fields);
  return writer.bytes;
}

/** Parquet codec numbers (parquet.thrift `CompressionCodec`). */
export const CODEC = { UNCOMPRESSED: 0, SNAPPY: 1, GZIP: 2, BROTLI: 4, LZ4: 5, ZSTD: 6, LZ4_RAW: 7 } as const;

/** What a hand-built file with one required INT32 column `x` claims. */
export interface HandBuiltParquet {
  /** Codec of the column chunk. @default CODEC.UNCOMPRESSED */
  readonly codec?: number;
  /** The page's data as stored (compressed with `codec`). @default four bytes: the value 7 */
  readonly pageData?: Uint8Array;
  /** The page header's `uncompressed_page_size`. @default the length of `pageData` */
  readonly uncompressedPageSize?: number;
  /** The rows and values the footer gives the file and its column chunk. @default 1 */
  readonly values?: number;
  /** The page header's `num_values`. @default `values` */
  readonly pageValues?: number;
  /** The chunk's `total_uncompressed_size`. @default header plus `uncompressedPageSize` */
  readonly chunkUncompressedSize?: number;
  /** Groups wrapping the column, each a REQUIRED group of one child. @default 0 */
  readonly nesting?: number;
}

/** The bytes of a one-page Parquet file as `options` claim it (see `HandBuiltParquet`). */
export function handBuiltParquet(options: HandBuiltParquet = {}): Uint8Array<ArrayBuffer> {
  const codec = options.codec ?? CODEC.UNCOMPRESSED;
  const pageData = options.pageData ?? Uint8Array.of(7, 0, 0, 0);
  const values = options.values ?? 1;
  const uncompressed = options.uncompressedPageSize ?? pageData.length;
  const dataPageHeader: Field[] = [
    [1, I32, options.pageValues ?? values],
    [2, I32, 0], // PLAIN
    [3, I32, 3], // RLE
    [4, I32, 3],
  ];
  const header = thrift([
    [1, I32, 0], // DATA_PAGE
    [2, I32, uncompressed],
    [3, I32, pageData.length],
    [5, STRUCT, dataPageHeader],
  ]);
  const pageOffset = 4;
  const chunkBytes = header.length + pageData.length;
  const nesting = options.nesting ?? 0;
  const groups: (readonly Field[])[] = Array.from({ length: nesting }, (_, depth) => [
    [3, I32, 0], // REQUIRED: no levels in the page
    [4, BINARY, `g${depth}`],
    [5, I32, 1],
  ]);
  const path = [...groups.map((_, depth) => `g${depth}`), 'x'];
  const metadata = thrift([
    [1, I32, 2],
    [
      2,
      LIST,
      {
        items: STRUCT,
        values: [
          [
            [4, BINARY, 'schema'],
            [5, I32, 1],
          ],
          ...groups,
          [
            [1, I32, 1], // INT32
            [3, I32, 0], // REQUIRED
            [4, BINARY, 'x'],
          ],
        ],
      },
    ],
    [3, I64, values],
    [
      4,
      LIST,
      {
        items: STRUCT,
        values: [
          [
            [
              1,
              LIST,
              {
                items: STRUCT,
                values: [
                  [
                    [2, I64, pageOffset],
                    [
                      3,
                      STRUCT,
                      [
                        [1, I32, 1],
                        [2, LIST, { items: I32, values: [0, 3] }],
                        [3, LIST, { items: BINARY, values: path }],
                        [4, I32, codec],
                        [5, I64, values],
                        [6, I64, options.chunkUncompressedSize ?? header.length + uncompressed],
                        [7, I64, chunkBytes],
                        [9, I64, pageOffset],
                      ],
                    ],
                  ],
                ],
              },
            ],
            [2, I64, chunkBytes],
            [3, I64, values],
          ],
        ],
      },
    ],
  ]);
  const magic = [0x50, 0x41, 0x52, 0x31];
  const length = metadata.length;
  const footerLength = [length & 0xff, (length >> 8) & 0xff, (length >> 16) & 0xff, length >>> 24];
  return Uint8Array.from([...magic, ...header, ...pageData, ...metadata, ...footerLength, ...magic]);
}

/** A snappy stream of `data` as one literal (snappy's preamble is the uncompressed length). */
export function snappyLiteral(data: Uint8Array, claimedLength = data.length): Uint8Array {
  const writer = new CompactWriter();
  writer.varint(claimedLength);
  writer.bytes.push((data.length - 1) << 2, ...data);
  return Uint8Array.from(writer.bytes);
}

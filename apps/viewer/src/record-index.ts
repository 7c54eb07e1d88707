/** Rows per page of a {@link RecordIndex}: 2^14 (320 KB a page). */
const PAGE_BITS = 14;
const PAGE_ROWS = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_ROWS - 1;

/**
 * Where every readable record of a file lies: its index in the file, its byte offset in the
 * (decompressed) file and its payload length, in pages of typed arrays (20 bytes a record, so ten
 * million records take 200 MB less than objects would; a new page is added as the index grows, and
 * nothing is copied).
 */
export class RecordIndex {
  readonly #recordIndexes: Float64Array[] = [];
  readonly #offsets: Float64Array[] = [];
  readonly #lengths: Uint32Array[] = [];
  /** How many records it holds. */
  count = 0;

  /** Appends one record. */
  add(recordIndex: number, byteOffset: number, length: number): void {
    const page = this.#page();
    const at = this.count & PAGE_MASK;
    this.#recordIndexes[page]![at] = recordIndex;
    this.#offsets[page]![at] = byteOffset;
    this.#lengths[page]![at] = length;
    this.count++;
  }

  /**
   * Appends `count` records in file order, the first with index `recordIndex`: record `i` starts at
   * byte `byteOffset + frames[2 * i]` and holds `frames[2 * i + 1]` payload bytes (a frame walk's
   * table).
   */
  addFrames(frames: Int32Array, count: number, recordIndex: number, byteOffset: number): void {
    for (let frame = 0; frame < count;) {
      const page = this.#page();
      const at = this.count & PAGE_MASK;
      const run = Math.min(count - frame, PAGE_ROWS - at);
      const recordIndexes = this.#recordIndexes[page]!;
      const offsets = this.#offsets[page]!;
      const lengths = this.#lengths[page]!;
      for (let step = 0; step < run; step++, frame++) {
        recordIndexes[at + step] = recordIndex + frame;
        offsets[at + step] = byteOffset + frames[2 * frame]!;
        lengths[at + step] = frames[2 * frame + 1]!;
      }
      this.count += run;
    }
  }

  /** The index in the file of the record on table row `row` (-1 past the rows). */
  recordIndex(row: number): number {
    return this.#has(row) ? this.#recordIndexes[row >>> PAGE_BITS]![row & PAGE_MASK]! : -1;
  }

  /** The byte offset of the record on table row `row` (its first framing byte; -1 past the rows). */
  byteOffset(row: number): number {
    return this.#has(row) ? this.#offsets[row >>> PAGE_BITS]![row & PAGE_MASK]! : -1;
  }

  /** The payload length of the record on table row `row`, in bytes (0 past the rows). */
  length(row: number): number {
    return this.#has(row) ? this.#lengths[row >>> PAGE_BITS]![row & PAGE_MASK]! : 0;
  }

  /** The first row whose record index is `recordIndex` or more (records lost to damage have no row). */
  rowOf(recordIndex: number): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.recordIndex(middle) < recordIndex) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #has(row: number): boolean {
    return Number.isInteger(row) && row >= 0 && row < this.count;
  }

  /** The page the next row goes in, added when the last one is full. */
  #page(): number {
    const page = this.count >>> PAGE_BITS;
    if (page === this.#offsets.length) {
      this.#recordIndexes.push(new Float64Array(PAGE_ROWS));
      this.#offsets.push(new Float64Array(PAGE_ROWS));
      this.#lengths.push(new Uint32Array(PAGE_ROWS));
    }
    return page;
  }
}

/**
 * The payloads of a compressed file's records, kept while they fit `budgetBytes`: a compressed file
 * cannot be sliced at a record, so the records past the budget are found again by decompressing from
 * the start.
 */
export class PayloadCache {
  readonly #payloads: Uint8Array[] = [];
  #bytes = 0;
  #full = false;

  /** @param budgetBytes - the most payload bytes kept. */
  constructor(private readonly budgetBytes: number) {}

  /**
   * Keeps a copy of the payload of the next row while the budget allows (the payload may be a view
   * into a read buffer that is reused).
   */
  add(payload: Uint8Array): void {
    if (this.#full || this.#bytes + payload.length > this.budgetBytes) {
      this.#full = true;
      return;
    }
    this.#payloads.push(payload.slice());
    this.#bytes += payload.length;
  }

  /** The payload of table row `row`, if kept. */
  get(row: number): Uint8Array | undefined {
    return this.#payloads[row];
  }
}

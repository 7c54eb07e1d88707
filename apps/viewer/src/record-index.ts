/**
 * Where every readable record of a file lies: its index in the file, its byte offset in the
 * (decompressed) file and its payload length, in growable typed arrays (20 bytes a record, so ten
 * million records take 200 MB less than objects would).
 */
export class RecordIndex {
  #recordIndexes = new Float64Array(1024);
  #offsets = new Float64Array(1024);
  #lengths = new Uint32Array(1024);
  /** How many records it holds. */
  count = 0;

  /** Appends one record. */
  add(recordIndex: number, byteOffset: number, length: number): void {
    if (this.count === this.#offsets.length) this.#grow();
    this.#recordIndexes[this.count] = recordIndex;
    this.#offsets[this.count] = byteOffset;
    this.#lengths[this.count] = length;
    this.count++;
  }

  /**
   * Appends `count` records in file order, the first with index `recordIndex`: record `i` starts at
   * byte `byteOffset + frames[2 * i]` and holds `frames[2 * i + 1]` payload bytes (a frame walk's
   * table).
   */
  addFrames(frames: Int32Array, count: number, recordIndex: number, byteOffset: number): void {
    while (this.count + count > this.#offsets.length) this.#grow();
    const at = this.count;
    const recordIndexes = this.#recordIndexes;
    const offsets = this.#offsets;
    const lengths = this.#lengths;
    for (let frame = 0; frame < count; frame++) {
      recordIndexes[at + frame] = recordIndex + frame;
      offsets[at + frame] = byteOffset + frames[2 * frame]!;
      lengths[at + frame] = frames[2 * frame + 1]!;
    }
    this.count += count;
  }

  /** The index in the file of the record on table row `row`. */
  recordIndex(row: number): number {
    return this.#recordIndexes[row] ?? -1;
  }

  /** The byte offset of the record on table row `row` (its first framing byte). */
  byteOffset(row: number): number {
    return this.#offsets[row] ?? -1;
  }

  /** The payload length of the record on table row `row`, in bytes. */
  length(row: number): number {
    return this.#lengths[row] ?? 0;
  }

  /** The first row whose record index is `recordIndex` or more (records lost to damage have no row). */
  rowOf(recordIndex: number): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#recordIndexes[middle]! < recordIndex) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #grow(): void {
    const size = this.#offsets.length * 2;
    const recordIndexes = new Float64Array(size);
    const offsets = new Float64Array(size);
    const lengths = new Uint32Array(size);
    recordIndexes.set(this.#recordIndexes);
    offsets.set(this.#offsets);
    lengths.set(this.#lengths);
    this.#recordIndexes = recordIndexes;
    this.#offsets = offsets;
    this.#lengths = lengths;
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

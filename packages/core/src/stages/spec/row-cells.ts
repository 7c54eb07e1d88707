import type { CellContext } from './cell-context.js';
import { utf8 } from './coerce-bytes.js';
import { floatValue } from './coerce-float.js';
import { INT64_MAX, INT64_MIN } from './coerce-int64.js';
import { decimalInteger } from '../../text/decimal-text.js';
import { smallInteger } from '../../text/plain-decimal.js';
import { trimCell } from './trim-cell.js';

/** Feature kinds of the fast path, as small integers. */
export const INT64 = 0;
export const FLOAT = 1;
export const BYTES = 2;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * The values of one row, parsed but not yet written: one slot per list value. `numbers` holds an
 * int64 (when exact as a number), a float, or a bytes value's length; `objects` holds an int64 beyond
 * 2^53 (bigint), or a bytes value (an ASCII string written byte by byte, or a Uint8Array).
 * Every slot parser returns false for anything it does not handle exactly as `cellCoercer` does:
 * the row then takes the Feature path, which raises the error (or handles the unusual value).
 */
export class RowSlots {
  numbers: Float64Array;
  objects: unknown[];
  count = 0;

  /**
   * @param capacity - slots allocated up front. A caller that writes slots by their index (one per
   *   feature, without {@link next}) must pass at least that many: a typed array drops writes past
   *   its end, and the row would be written with NaN in place of the values.
   * @default 256
   */
  constructor(capacity = 256) {
    this.numbers = new Float64Array(Math.max(capacity, 1));
    // Filled, not holey: slots are written out of order, and a sparse array turns into a slow dictionary.
    this.objects = new Array<unknown>(this.numbers.length).fill(undefined);
  }

  /** Reserves one slot; returns its index. */
  next(): number {
    if (this.count === this.numbers.length) {
      const grown = new Float64Array(this.numbers.length * 2);
      grown.set(this.numbers);
      this.numbers = grown;
    }
    return this.count++;
  }

  /** An int64 value into slot `slot`; false when it is not a plain, valid int64. */
  int64(value: unknown, slot: number, context: CellContext): boolean {
    switch (typeof value) {
      case 'number':
        if (!Number.isSafeInteger(value)) return false;
        this.numbers[slot] = value;
        this.objects[slot] = undefined;
        return true;
      case 'boolean':
        this.numbers[slot] = value ? 1 : 0;
        this.objects[slot] = undefined;
        return true;
      case 'bigint':
        return this.#bigint(value, slot);
      case 'string': {
        const text = trimCell(value);
        const small = smallInteger(text);
        if (small !== undefined) {
          this.numbers[slot] = small;
          this.objects[slot] = undefined;
          return true;
        }
        const integer = decimalInteger(text);
        if (integer !== undefined) return this.#bigint(integer, slot);
        if (context.booleanStrings) {
          const lower = text.toLowerCase();
          if (lower === 'true' || lower === 'false') {
            this.numbers[slot] = lower === 'true' ? 1 : 0;
            this.objects[slot] = undefined;
            return true;
          }
        }
        return false;
      }
      default:
        return false;
    }
  }

  #bigint(value: bigint, slot: number): boolean {
    if (value < INT64_MIN || value > INT64_MAX) return false;
    const number = Number(value);
    if (number >= -MAX_SAFE && number <= MAX_SAFE) {
      this.numbers[slot] = number;
      this.objects[slot] = undefined;
    } else {
      this.numbers[slot] = Number.NaN;
      this.objects[slot] = value;
    }
    return true;
  }

  /** A float value into slot `slot`; false when it is not a number, a bigint or a numeric string. */
  float(value: unknown, slot: number, context: CellContext): boolean {
    switch (typeof value) {
      case 'number':
        this.numbers[slot] = value;
        return true;
      case 'bigint':
        this.numbers[slot] = Number(value);
        return true;
      case 'string':
        try {
          this.numbers[slot] = floatValue(value, context);
          return true;
        } catch {
          return false;
        }
      default:
        return false;
    }
  }

  /** A bytes value into slot `slot` (its length in `numbers`); false for anything unusual. */
  bytes(value: unknown, slot: number): boolean {
    if (typeof value === 'string') return this.#text(value, slot);
    if (value instanceof Uint8Array) {
      this.numbers[slot] = value.length;
      this.objects[slot] = value;
      return true;
    }
    if (typeof value === 'number' || typeof value === 'bigint') return this.#text(String(value), slot);
    return false;
  }

  #text(text: string, slot: number): boolean {
    const length = text.length;
    if (length <= 64) {
      let index = 0;
      while (index < length && text.charCodeAt(index) < 0x80) index++;
      if (index === length) {
        this.numbers[slot] = length;
        this.objects[slot] = text;
        return true;
      }
    }
    const encoded = utf8(text);
    this.numbers[slot] = encoded.length;
    this.objects[slot] = encoded;
    return true;
  }

  /** One value of `kind` into a new slot. */
  value(kind: number, value: unknown, context: CellContext): boolean {
    const slot = this.next();
    if (kind === INT64) return this.int64(value, slot, context);
    if (kind === FLOAT) return this.float(value, slot, context);
    return this.bytes(value, slot);
  }
}

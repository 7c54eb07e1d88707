import { TfpipeError } from '../errors/tfpipe-error.js';

const encoder = new TextEncoder();
const MAX_CACHED_KEYS = 4096;
const MAX_CACHED_KEY_LENGTH = 128;
const keyCache = new Map<string, Uint8Array>();

/**
 * The UTF-8 bytes of a feature name. Short names are cached (bounded; the cache is simply cleared
 * when full) because the same few dozen names repeat in every record of a dataset.
 * @throws TfpipeError `FEATURE_TYPE` for a name that is not well-formed UTF-16 (a lone surrogate),
 *   which has no UTF-8 form and would come back as U+FFFD.
 */
export function keyBytes(key: string): Uint8Array {
  let bytes = keyCache.get(key);
  if (bytes !== undefined) return bytes;
  if (!isWellFormed(key)) {
    throw new TfpipeError(
      'FEATURE_TYPE',
      'feature name is not well-formed Unicode (it holds a lone surrogate)',
      {
        position: { field: key },
      },
    );
  }
  bytes = encoder.encode(key);
  if (key.length <= MAX_CACHED_KEY_LENGTH) {
    if (keyCache.size >= MAX_CACHED_KEYS) keyCache.clear();
    keyCache.set(key, bytes);
  }
  return bytes;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isWellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === 'function' ? native.call(text) : !LONE_SURROGATE.test(text);
}

/** Lexicographic order of byte strings: the UTF-8 byte order deterministic output sorts map keys by. */
export function compareBytes(left: Uint8Array, right: Uint8Array): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const difference = (left[index] as number) - (right[index] as number);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/** A map's keys with their UTF-8 bytes, sorted by those bytes. */
export interface SortedKeys {
  readonly keys: readonly string[];
  readonly bytes: readonly Uint8Array[];
}

// Tabular data repeats one key set record after record: remember the last few orders so that the
// common case costs one pass of string comparisons instead of a sort.
const MAX_REMEMBERED_ORDERS = 8;
const rememberedOrders: { readonly unsorted: readonly string[]; readonly sorted: SortedKeys }[] = [];

/**
 * The keys of `record` in UTF-8 byte order. JavaScript's default sort compares UTF-16 code units,
 * which puts astral characters (surrogate pairs) before U+E000..U+FFFF; UTF-8 order does not.
 */
export function sortedKeys(record: object): SortedKeys {
  const unsorted = Object.keys(record);
  for (const remembered of rememberedOrders) {
    if (sameKeys(remembered.unsorted, unsorted)) return remembered.sorted;
  }
  const entries = unsorted.map((key) => ({ key, bytes: keyBytes(key) }));
  entries.sort((left, right) => compareBytes(left.bytes, right.bytes));
  const sorted: SortedKeys = {
    keys: entries.map((entry) => entry.key),
    bytes: entries.map((entry) => entry.bytes),
  };
  if (rememberedOrders.length >= MAX_REMEMBERED_ORDERS) rememberedOrders.pop();
  rememberedOrders.unshift({ unsorted, sorted });
  return sorted;
}

function sameKeys(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}

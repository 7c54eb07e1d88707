import { TfpipeError } from '../errors/tfpipe-error.js';
import type { Feature } from '../model/feature.js';
import type { Example, Features, SequenceExample } from '../model/example.js';
import { sortedKeys } from './feature-keys.js';
import type { SortedKeys } from './feature-keys.js';
import { int64VarintSize, varintSize } from './varint.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Bytes of a length-delimited field (tag, length, payload) with `payload` bytes. */
export function fieldSize(payload: number): number {
  return 1 + varintSize(payload) + payload;
}

/** The `FEATURE_TYPE` error for a bad value of feature `key`. */
export function featureTypeError(key: string, detail: string): TfpipeError {
  return new TfpipeError('FEATURE_TYPE', detail, { position: { field: key }, stage: 'serializeExamples' });
}

function entrySize(keyLength: number, valueSize: number): number {
  return fieldSize(fieldSize(keyLength) + fieldSize(valueSize));
}

/** Whether `value` is a SequenceExample (it has feature lists). */
export function isSequence(value: Example | SequenceExample): value is SequenceExample {
  return (value as Partial<SequenceExample>).featureLists !== undefined;
}

/**
 * The measuring pass of the encoder and what it found. It records, in the order the writer needs
 * them (parents before children), the size of every length-delimited message whose size is not
 * obvious, each map's sorted keys and each map value; the writing pass reads them back in the same
 * order, so nothing is measured, sorted or looked up twice. One object is reused for every value.
 */
export class ExampleMeasurement {
  #sizes = new Float64Array(256);
  #sizeCount = 0;
  #sizeCursor = 0;
  readonly #keyOrders: SortedKeys[] = [];
  #keyOrderCursor = 0;
  readonly #values: unknown[] = [];
  #valueCursor = 0;

  /** Measures `value` (forgetting the previous one) and returns its encoded length in bytes. */
  measure(value: Example | SequenceExample): number {
    this.#sizeCount = 0;
    this.#keyOrders.length = 0;
    this.#values.length = 0;
    if (isSequence(value)) {
      return (
        fieldSize(this.#measureFeatures(value.context)) +
        fieldSize(this.#measureFeatureLists(value.featureLists))
      );
    }
    return fieldSize(this.#measureFeatures(value.features));
  }

  /** Starts reading the recorded sizes, key orders and values from the first again. */
  rewind(): void {
    this.#sizeCursor = 0;
    this.#keyOrderCursor = 0;
    this.#valueCursor = 0;
  }

  /** The next recorded message size. */
  nextSize(): number {
    return this.#sizes[this.#sizeCursor++] as number;
  }

  /** The next recorded map's sorted keys. */
  nextKeyOrder(): SortedKeys {
    return this.#keyOrders[this.#keyOrderCursor++] as SortedKeys;
  }

  /** The next recorded map value (a Feature, or a feature list's Features). */
  nextValue(): unknown {
    return this.#values[this.#valueCursor++];
  }

  #reserveSize(): number {
    if (this.#sizeCount === this.#sizes.length) {
      const grown = new Float64Array(this.#sizes.length * 2);
      grown.set(this.#sizes);
      this.#sizes = grown;
    }
    return this.#sizeCount++;
  }

  /** The encoded size of one Feature message; records its list payload size. */
  #measureFeature(key: string, feature: Feature): number {
    if (typeof feature !== 'object' || feature === null)
      throw featureTypeError(key, `a feature must be an object, got ${String(feature)}`);
    switch (feature.kind) {
      case 'bytes': {
        const slot = this.#reserveSize();
        let list = 0;
        const values = feature.value;
        for (let index = 0; index < values.length; index++) {
          const value = values[index];
          if (!(value instanceof Uint8Array))
            throw featureTypeError(key, 'bytes feature values must be Uint8Arrays');
          list += fieldSize(value.length);
        }
        this.#sizes[slot] = list;
        return fieldSize(list);
      }
      case 'float': {
        const count = feature.value.length;
        const list = count === 0 ? 0 : fieldSize(count * 4);
        return fieldSize(list);
      }
      case 'int64': {
        const slot = this.#reserveSize();
        let packed = 0;
        const list = feature.value;
        for (let index = 0; index < list.length; index++) {
          const value = list[index];
          if (typeof value !== 'bigint')
            throw featureTypeError(key, `int64 feature values must be bigints, got ${typeof value}`);
          // Through Number when it is exact and non-negative: bigint comparisons cost several times more.
          const number = Number(value);
          packed += number >= 0 && number <= MAX_SAFE ? varintSize(number) : int64VarintSize(value);
        }
        this.#sizes[slot] = packed;
        return fieldSize(packed === 0 ? 0 : fieldSize(packed));
      }
      case 'none':
        return 0;
      default:
        throw featureTypeError(
          key,
          `unknown feature kind ${JSON.stringify((feature as { kind: unknown }).kind)}`,
        );
    }
  }

  /** The encoded size of a Features message (map<string, Feature>); records each feature's size. */
  #measureFeatures(features: Features): number {
    const order = sortedKeys(features);
    const { keys, bytes } = order;
    this.#keyOrders.push(order);
    const slot = this.#reserveSize();
    let total = 0;
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      const featureSlot = this.#reserveSize();
      const feature = features[key] as Feature;
      this.#values.push(feature);
      const size = this.#measureFeature(key, feature);
      this.#sizes[featureSlot] = size;
      total += entrySize((bytes[index] as Uint8Array).length, size);
    }
    this.#sizes[slot] = total;
    return total;
  }

  #measureFeatureLists(lists: SequenceExample['featureLists']): number {
    const order = sortedKeys(lists);
    const { keys, bytes } = order;
    this.#keyOrders.push(order);
    const slot = this.#reserveSize();
    let total = 0;
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      const features = lists[key];
      this.#values.push(features);
      if (!Array.isArray(features))
        throw featureTypeError(key, 'a feature list must be an array of features');
      const listSlot = this.#reserveSize();
      let list = 0;
      for (const feature of features as readonly Feature[]) {
        const featureSlot = this.#reserveSize();
        const size = this.#measureFeature(key, feature);
        this.#sizes[featureSlot] = size;
        list += fieldSize(size);
      }
      this.#sizes[listSlot] = list;
      total += entrySize((bytes[index] as Uint8Array).length, list);
    }
    this.#sizes[slot] = total;
    return total;
  }
}

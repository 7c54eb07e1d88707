import type { Feature } from '@tfpipe/core';
import { bytesText, floatText } from '../feature-text.js';
import { imageType } from '../image-sniff.js';
import { Histogram, type HistogramView } from './histogram.js';
import { imageSize } from './image-size.js';
import { TopValues, type TopValue } from './top-values.js';

/** Bytes values longer than this are not counted among the top values, in bytes. @default 256 */
export const MAX_COUNTED_VALUE_BYTES = 256;

/** The numbers of an int64 or float feature. */
export interface NumericProfile {
  /** The smallest value: exact for int64, as protobuf prints it for floats. */
  readonly min: string;
  /** The largest value. */
  readonly max: string;
  /** The mean of the finite values (int64 values past 2^53 are rounded for it). */
  readonly mean: number;
  /** NaN and ±Infinity values, left out of the rest. */
  readonly nonFinite: number;
  readonly histogram: HistogramView;
}

/** The images among a bytes feature's values. */
export interface ImageProfile {
  /** Values by MIME type (from their magic bytes), most first. */
  readonly formats: readonly { readonly type: string; readonly count: number }[];
  /** The most frequent `W×H` sizes their headers state. */
  readonly sizes: readonly TopValue[];
  /** Images whose header states no size (cut short or not understood). */
  readonly unknownSize: number;
}

/** What the values of one feature look like (beyond core's kind, presence and length range). */
export interface ValueProfile {
  /** Values seen, in all records. */
  readonly values: number;
  /** How many values each record where it is present has. */
  readonly listLengths: HistogramView;
  readonly numeric: NumericProfile | undefined;
  /** The most frequent bytes values that are not images (text quoted, else hex). */
  readonly top: readonly TopValue[];
  /** Bytes values too long to be counted among the top values. */
  readonly longValues: number;
  readonly images: ImageProfile | undefined;
}

/** Collects a {@link ValueProfile} of one feature, a record at a time, in bounded memory. */
export class FeatureProfiler {
  #values = 0;
  readonly #lengths = new Histogram(true);
  #numbers: Histogram | undefined;
  #min: number | bigint | undefined;
  #max: number | bigint | undefined;
  #sum = 0;
  #finite = 0;
  #nonFinite = 0;
  readonly #top = new TopValues();
  #longValues = 0;
  readonly #formats = new Map<string, number>();
  readonly #sizes = new TopValues();
  #unknownSize = 0;

  /** Adds the feature of one record. */
  add(feature: Feature): void {
    const values = feature.value;
    this.#values += values.length;
    this.#lengths.add(values.length);
    if (feature.kind === 'bytes') {
      for (const value of feature.value) this.#addBytes(value);
    } else if (feature.kind === 'int64') {
      this.#numbers ??= new Histogram(true);
      for (const value of feature.value) {
        if (this.#min === undefined || value < this.#min) this.#min = value;
        if (this.#max === undefined || value > this.#max) this.#max = value;
        this.#addNumber(Number(value));
      }
    } else if (feature.kind === 'float') {
      this.#numbers ??= new Histogram(false);
      for (const value of feature.value) {
        if (!Number.isFinite(value)) {
          this.#nonFinite++;
          continue;
        }
        if (this.#min === undefined || value < this.#min) this.#min = value;
        if (this.#max === undefined || value > this.#max) this.#max = value;
        this.#addNumber(value);
      }
    }
  }

  /** The profile so far. */
  result(): ValueProfile {
    const formats = [...this.#formats]
      .map(([type, count]) => ({ type, count }))
      .sort((a, b) => b.count - a.count);
    return {
      values: this.#values,
      listLengths: this.#lengths.view(),
      numeric:
        this.#numbers === undefined || this.#min === undefined
          ? undefined
          : {
              min: numberText(this.#min),
              max: numberText(this.#max!),
              mean: this.#sum / this.#finite,
              nonFinite: this.#nonFinite,
              histogram: this.#numbers.view(),
            },
      top: this.#top.top(),
      longValues: this.#longValues,
      images:
        formats.length === 0
          ? undefined
          : { formats, sizes: this.#sizes.top(5), unknownSize: this.#unknownSize },
    };
  }

  #addNumber(value: number): void {
    this.#sum += value;
    this.#finite++;
    this.#numbers!.add(value);
  }

  #addBytes(value: Uint8Array): void {
    const type = imageType(value);
    if (type !== undefined) {
      this.#formats.set(type, (this.#formats.get(type) ?? 0) + 1);
      const size = imageSize(value, type);
      if (size === undefined) this.#unknownSize++;
      else this.#sizes.add(`${size.width}×${size.height}`);
    } else if (value.length > MAX_COUNTED_VALUE_BYTES) {
      this.#longValues++;
    } else {
      this.#top.add(bytesText(value, MAX_COUNTED_VALUE_BYTES));
    }
  }
}

function numberText(value: number | bigint): string {
  return typeof value === 'bigint' ? String(value) : floatText(value);
}

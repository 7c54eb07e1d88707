import type { Example, Features, PayloadType, SequenceExample } from '../model/example.js';
import { isSequenceExample } from '../model/example.js';
import type { FeatureKind } from '../model/feature.js';
import { EncodedExample, ENCODED } from '../codec/encoded-example.js';
import { compareBytes } from '../codec/feature-keys.js';

/** What was seen of one feature across a dataset. */
export interface FeatureStat {
  /** Feature name. */
  readonly name: string;
  /** Its kind; `'mixed'` when records disagree (a dataset TensorFlow cannot parse with one spec). */
  readonly kind: Exclude<FeatureKind, 'none'> | 'none' | 'mixed';
  /** Records in which the feature is present (a kindless Feature counts as present). */
  readonly present: number;
  /** Shortest list seen where present. */
  readonly minLength: number;
  /** Longest list seen where present. */
  readonly maxLength: number;
}

/** What was seen of one feature list of SequenceExamples. */
export interface FeatureListStat extends FeatureStat {
  /** Fewest steps (Features in the list) where present. */
  readonly minSteps: number;
  /** Most steps where present. */
  readonly maxSteps: number;
}

/** The summary of a dataset's features, sorted by name. */
export interface DatasetStats {
  /** What the records are. */
  readonly payloadType: PayloadType;
  /** Records seen. */
  readonly records: number;
  /** Features (of an Example) or context features (of a SequenceExample). */
  readonly features: readonly FeatureStat[];
  /** Feature lists of SequenceExamples; empty for Examples. */
  readonly featureLists: readonly FeatureListStat[];
}

interface MutableStat {
  kind: FeatureStat['kind'];
  present: number;
  minLength: number;
  maxLength: number;
  minSteps: number;
  maxSteps: number;
}

/**
 * Accumulates {@link DatasetStats} one record at a time in memory proportional to the number of
 * distinct feature names, not records. Used by the sink's manifest, `tfpipe schema` and the reader
 * spec generators.
 */
export class FeatureStatsCollector {
  #records = 0;
  #payloadType: PayloadType | undefined;
  readonly #features = new Map<string, MutableStat>();
  readonly #featureLists = new Map<string, MutableStat>();
  readonly #scanner = new ExampleScanner();

  /** Adds one record. */
  add(record: Example | SequenceExample): void {
    this.#records++;
    if (isSequenceExample(record)) {
      this.#payloadType ??= 'SequenceExample';
      addFeatures(this.#features, record.context);
      for (const name of Object.keys(record.featureLists)) {
        const steps = record.featureLists[name] ?? [];
        const stat = statFor(this.#featureLists, name);
        stat.present++;
        stat.minSteps = Math.min(stat.minSteps, steps.length);
        stat.maxSteps = Math.max(stat.maxSteps, steps.length);
        for (const step of steps) observe(stat, step.kind, step.value.length);
      }
    } else {
      this.#payloadType ??= 'Example';
      // An encoded Example is measured from its bytes: decoding it would build every Feature.
      if (record instanceof EncodedExample && this.#scanner.add(this.#features, record[ENCODED])) return;
      addFeatures(this.#features, record.features);
    }
  }

  /** Records added so far. */
  get records(): number {
    return this.#records;
  }

  /** The stats so far, features sorted by name. */
  result(payloadType?: PayloadType): DatasetStats {
    return {
      payloadType: payloadType ?? this.#payloadType ?? 'Example',
      records: this.#records,
      features: [...this.#features].sort(byName).map(([name, stat]) => toStat(name, stat)),
      featureLists: [...this.#featureLists].sort(byName).map(([name, stat]) => ({
        ...toStat(name, stat),
        minSteps: stat.maxSteps < 0 ? 0 : stat.minSteps,
        maxSteps: Math.max(stat.maxSteps, 0),
      })),
    };
  }
}

function addFeatures(stats: Map<string, MutableStat>, features: Features): void {
  for (const name of Object.keys(features)) {
    const feature = features[name];
    if (feature === undefined) continue;
    const stat = statFor(stats, name);
    stat.present++;
    observe(stat, feature.kind, feature.value.length);
  }
}

function statFor(stats: Map<string, MutableStat>, name: string): MutableStat {
  let stat = stats.get(name);
  if (stat === undefined) {
    stat = { kind: 'none', present: 0, minLength: Infinity, maxLength: -1, minSteps: Infinity, maxSteps: -1 };
    stats.set(name, stat);
  }
  return stat;
}

function observe(stat: MutableStat, kind: FeatureKind, length: number): void {
  // A kindless Feature is an empty list of any kind: it neither sets nor contradicts the kind.
  if (kind !== 'none') {
    if (stat.kind === 'none') stat.kind = kind;
    else if (stat.kind !== kind) stat.kind = 'mixed';
  }
  stat.minLength = Math.min(stat.minLength, length);
  stat.maxLength = Math.max(stat.maxLength, length);
}

function toStat(name: string, stat: MutableStat): FeatureStat {
  return {
    name,
    kind: stat.kind,
    present: stat.present,
    minLength: stat.maxLength < 0 ? 0 : stat.minLength,
    maxLength: Math.max(stat.maxLength, 0),
  };
}

function byName([a]: [string, MutableStat], [b]: [string, MutableStat]): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const KIND_BY_FIELD: readonly FeatureKind[] = ['none', 'bytes', 'float', 'int64'];
/** As the decoder reads keys: a BOM is part of the name; invalid UTF-8 is refused (decoding then raises it). */
const keyDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Where the payload of the length prefix {@link payloadEnd} last read starts. */
let payloadStart = 0;

/**
 * Reads the length prefix (a varint) at `position` of a payload that must end by `limit`: the
 * payload's end, its start in {@link payloadStart}; -1 when the varint or the payload passes `limit`
 * or the varint is longer than 10 bytes.
 */
function payloadEnd(bytes: Uint8Array, position: number, limit: number): number {
  let length = 0;
  let multiplier = 1;
  for (let index = 0; index < 10 && position < limit; index++) {
    const byte = bytes[position++]!;
    length += (byte & 0x7f) * multiplier;
    if (byte < 0x80) {
      payloadStart = position;
      return length <= limit - position ? position + length : -1;
    }
    multiplier *= 128;
  }
  return -1;
}

/**
 * Measures an Example's features from its wire bytes, for the canonical form the codec writes: one
 * `features` field, map entries in strictly increasing key order (so no key twice), each Feature with
 * at most one list, packed numbers, every tag in one byte. Anything else is refused (false, nothing
 * counted) and the caller measures the decoded Example, so the result is always what decoding would
 * give. The bytes are read with plain offsets (no reader object, no exception), since every record
 * a sink with a manifest writes passes through here.
 */
class ExampleScanner {
  /** Key bytes and names of the last record's entries, by entry index: rows repeat their keys. */
  #keyBytes: Uint8Array[] = [];
  #keyNames: string[] = [];
  /** The stat of each remembered key, once looked up (stats always go to the same map). */
  #keyStats: (MutableStat | undefined)[] = [];
  /** Entries read (their names are `#keyNames`): kinds and lengths, applied once the whole record is read. */
  #kinds: FeatureKind[] = [];
  #lengths: number[] = [];

  add(stats: Map<string, MutableStat>, bytes: Uint8Array): boolean {
    const count = this.#entries(bytes);
    if (count < 0) return false;
    for (let index = 0; index < count; index++) {
      const stat = (this.#keyStats[index] ??= statFor(stats, this.#keyNames[index]!));
      stat.present++;
      observe(stat, this.#kinds[index]!, this.#lengths[index]!);
    }
    return true;
  }

  /** Reads the entries into the scratch arrays; their number, or -1 for a non-canonical or malformed record. */
  #entries(bytes: Uint8Array): number {
    const end = bytes.length;
    if (end === 0) return 0;
    if (bytes[0] !== 0x0a) return -1;
    if (payloadEnd(bytes, 1, end) !== end) return -1;
    let position = payloadStart;
    let count = 0;
    let previous: Uint8Array | undefined;
    let previousHit = false;
    while (position < end) {
      if (bytes[position] !== 0x0a) return -1;
      const entryEnd = payloadEnd(bytes, position + 1, end);
      if (entryEnd < 0) return -1;
      position = payloadStart;
      if (position >= entryEnd || bytes[position] !== 0x0a) return -1;
      const keyEnd = payloadEnd(bytes, position + 1, entryEnd);
      if (keyEnd < 0) return -1;
      // The key as the last record's at this index (verified then), else decoded and checked now.
      const keyStart = payloadStart;
      const cached = this.#keyBytes[count];
      let hit = cached !== undefined && cached.length === keyEnd - keyStart;
      for (let index = 0; hit && index < cached!.length; index++)
        hit = cached![index] === bytes[keyStart + index];
      if (!hit || !previousHit) {
        const key = bytes.subarray(keyStart, keyEnd);
        if (previous !== undefined && compareBytes(previous, key) >= 0) return -1;
        if (!hit && !this.#remember(count, key)) return -1;
      }
      previous = this.#keyBytes[count];
      previousHit = hit;
      if (keyEnd >= entryEnd || bytes[keyEnd] !== 0x12) return -1;
      if (payloadEnd(bytes, keyEnd + 1, entryEnd) !== entryEnd) return -1;
      position = payloadStart;
      let kind: FeatureKind = 'none';
      let length = 0;
      if (position < entryEnd) {
        const tag = bytes[position]!;
        const field = tag >>> 3;
        if ((tag & 7) !== 2 || field < 1 || field > 3) return -1;
        if (payloadEnd(bytes, position + 1, entryEnd) !== entryEnd) return -1;
        kind = KIND_BY_FIELD[field]!;
        length = listLength(bytes, field, payloadStart, entryEnd);
        if (length < 0) return -1;
      }
      this.#kinds[count] = kind;
      this.#lengths[count] = length;
      count++;
      position = entryEnd;
    }
    return count;
  }

  /** Decodes and keeps the key at entry `index` with its stat; false for a key that is not UTF-8. */
  #remember(index: number, key: Uint8Array): boolean {
    let name: string;
    try {
      name = keyDecoder.decode(key);
    } catch {
      return false;
    }
    // The keys after it came from an earlier record: dropped, so that the remembered keys stay in
    // strictly increasing order and a run of hits (whose order is not checked again) stays in order.
    this.#keyBytes.length = index;
    this.#keyNames.length = index;
    this.#keyStats.length = index;
    this.#keyBytes[index] = key.slice();
    this.#keyNames[index] = name;
    this.#keyStats[index] = undefined;
    return true;
  }
}

/** Values in a list message `[start, end)` of `field`: bytes entries, or one packed run of numbers; -1 otherwise. */
function listLength(bytes: Uint8Array, field: number, start: number, end: number): number {
  if (start === end) return 0;
  let position = start;
  if (field === 1) {
    let count = 0;
    while (position < end) {
      if (bytes[position] !== 0x0a) return -1;
      position = payloadEnd(bytes, position + 1, end);
      if (position < 0) return -1;
      count++;
    }
    return count;
  }
  if (bytes[position] !== 0x0a || payloadEnd(bytes, position + 1, end) !== end) return -1;
  position = payloadStart;
  if (field === 2) return (end - position) % 4 === 0 ? (end - position) / 4 : -1;
  // Each value ends at a byte under 0x80; more than 9 bytes before it is a varint the decoder refuses.
  let count = 0;
  let run = 0;
  for (let index = position; index < end; index++) {
    if (bytes[index]! < 0x80) {
      count++;
      run = 0;
    } else if (++run > 9) return -1;
  }
  return run === 0 ? count : -1;
}

import {
  FeatureStatsCollector,
  daliSpec,
  tensorflowSpec,
  type DatasetStats,
  type FeatureListStat,
  type FeatureStat,
} from '@tfpipe/core';
import { specTypeScriptFromStats } from '@tfpipe/dataset';
import type { TfrecordCompression } from '@tfpipe/sink-tfrecord/web';
import type { DecodedPayload } from '../decode-payload.js';
import { FeatureProfiler, type ValueProfile } from './feature-profile.js';

/** Features whose values are profiled; past it only core's kind, presence and lengths. @default 1000 */
export const MAX_PROFILED_FEATURES = 1000;

/** One feature: core's statistics and, when profiled, what its values look like. */
export interface FeatureProfile extends FeatureStat {
  readonly values: ValueProfile | undefined;
}

/** The reader code for the dataset, for TensorFlow, NVIDIA DALI and `@tfpipe/dataset`. */
export interface ReaderSpecs {
  readonly tensorflow: string;
  readonly dali: string;
  readonly typescript: string;
}

/** The schema and statistics of a file, from one pass over its readable records. */
export interface DatasetProfile {
  readonly payloadType: DatasetStats['payloadType'];
  /** Records profiled (the readable ones that decode). */
  readonly records: number;
  /** Readable records whose payload is neither an Example nor a SequenceExample. */
  readonly undecodable: number;
  /** Features (of an Example) or context features (of a SequenceExample), by name. */
  readonly features: readonly FeatureProfile[];
  /** Feature lists of SequenceExamples, as core counts them. */
  readonly featureLists: readonly FeatureListStat[];
  /** Features seen past {@link MAX_PROFILED_FEATURES}, whose values were not profiled. */
  readonly unprofiled: number;
  readonly specs: ReaderSpecs;
}

/**
 * The schema and statistics pass: core's `FeatureStatsCollector` (what `tfpipe schema` and the
 * manifest report) plus a {@link FeatureProfiler} per feature; memory grows with the number of
 * feature names, never with records.
 */
export class ProfileCollector {
  readonly #stats = new FeatureStatsCollector();
  readonly #profilers = new Map<string, FeatureProfiler>();
  #undecodable = 0;

  /** Adds one record's decoded payload. */
  add(decoded: DecodedPayload): void {
    const { payload } = decoded;
    if (payload === undefined) {
      this.#undecodable++;
      return;
    }
    this.#stats.add(payload);
    const features = 'features' in payload ? payload.features : payload.context;
    for (const name of Object.keys(features)) {
      let profiler = this.#profilers.get(name);
      if (profiler === undefined) {
        if (this.#profilers.size >= MAX_PROFILED_FEATURES) continue;
        profiler = new FeatureProfiler();
        this.#profilers.set(name, profiler);
      }
      profiler.add(features[name]!);
    }
  }

  /** The profile, with reader code naming `file`. */
  result(file: string, compression: TfrecordCompression): DatasetProfile {
    const stats = this.#stats.result();
    return {
      payloadType: stats.payloadType,
      records: stats.records,
      undecodable: this.#undecodable,
      features: stats.features.map((stat) => ({ ...stat, values: this.#profilers.get(stat.name)?.result() })),
      featureLists: stats.featureLists,
      unprofiled: stats.features.length - this.#profilers.size,
      specs: {
        tensorflow: tensorflowSpec(stats, { files: [file], compression }),
        dali: daliSpec(stats, { files: [file] }),
        typescript: specTypeScriptFromStats(stats),
      },
    };
  }
}

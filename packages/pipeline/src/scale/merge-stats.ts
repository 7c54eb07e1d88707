import type { DatasetStats, FeatureListStat, FeatureStat } from '@tfpipe/core';

function mergeKind(left: FeatureStat['kind'], right: FeatureStat['kind']): FeatureStat['kind'] {
  // As the collector observes records: a kindless Feature neither sets nor contradicts a kind.
  if (left === 'none') return right;
  if (right === 'none' || left === right) return left;
  return 'mixed';
}

type AnyStat = FeatureStat & Partial<Pick<FeatureListStat, 'minSteps' | 'maxSteps'>>;

function mergeList<Stat extends AnyStat>(lists: readonly (readonly Stat[])[]): Stat[] {
  const merged = new Map<string, Stat>();
  for (const list of lists) {
    for (const stat of list) {
      const seen = merged.get(stat.name);
      if (seen === undefined) {
        merged.set(stat.name, stat);
        continue;
      }
      const steps =
        seen.minSteps !== undefined && stat.minSteps !== undefined
          ? {
              minSteps: Math.min(seen.minSteps, stat.minSteps),
              maxSteps: Math.max(seen.maxSteps ?? 0, stat.maxSteps ?? 0),
            }
          : {};
      merged.set(stat.name, {
        ...seen,
        kind: mergeKind(seen.kind, stat.kind),
        present: seen.present + stat.present,
        minLength: Math.min(seen.minLength, stat.minLength),
        maxLength: Math.max(seen.maxLength, stat.maxLength),
        ...steps,
      });
    }
  }
  return [...merged.values()].sort((left, right) =>
    left.name < right.name ? -1 : left.name > right.name ? 1 : 0,
  );
}

/**
 * The stats of records seen in parts (shards, splits) as one collector seeing them all would give
 * them: presence summed, list lengths widened, kinds combined (`mixed` when parts disagree).
 */
export function mergeStats(parts: readonly DatasetStats[]): DatasetStats {
  return {
    payloadType: parts.find((part) => part.records > 0)?.payloadType ?? parts[0]?.payloadType ?? 'Example',
    records: parts.reduce((sum, part) => sum + part.records, 0),
    features: mergeList(parts.map((part) => part.features)),
    featureLists: mergeList(parts.map((part) => part.featureLists)),
  };
}

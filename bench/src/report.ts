import { median, type BenchCase, type Comparison, type SideResult } from './harness.js';

function rate(value: number, unit: string): string {
  const text = value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1);
  return `${text} ${unit}`;
}

function megabytes(bytes: number | undefined): string {
  return bytes === undefined ? '?' : `${Math.round(bytes / 1e6)} MB`;
}

export function formatNotes(notes: readonly string[]): string {
  return notes.map((note) => `  input: ${note}`).join('\n');
}

/**
 * One line: ours, the baseline, the ratio, the target and PASS/BELOW, and both peak RSS values. With
 * several rounds (`BENCH_ROUNDS`), each side's rate is the median over the rounds, the ratio the median
 * of the per-round ratios, with their spread.
 */
export function formatComparison(
  bench: BenchCase,
  comparison: Comparison,
  ours: readonly SideResult[],
  baseline: readonly SideResult[],
): { text: string; below: boolean } {
  const rounds = Math.min(ours.length, baseline.length);
  const ratios = Array.from({ length: rounds }, (_, round) => ours[round]!.rate / baseline[round]!.rate);
  const ratio = median(ratios);
  const target = comparison.target;
  const below = target !== undefined && ratio < target;
  const verdict = target === undefined ? 'report' : below ? 'BELOW' : 'PASS';
  const label = (name: string): string => bench.sides[name]?.label ?? name;
  const side = (results: readonly SideResult[]): string => {
    const value = rate(median(results.map((result) => result.rate)), bench.unit);
    if (results.length > 1)
      return `${value} (median of ${results.length} rounds: ${results.map((result) => rate(result.rate, bench.unit)).join(', ')})`;
    return results[0]!.note === undefined ? value : `${value} (${results[0]!.note})`;
  };
  const peak = (results: readonly SideResult[]): number | undefined =>
    results.some((result) => result.peakRssBytes !== undefined)
      ? Math.max(...results.map((result) => result.peakRssBytes ?? 0))
      : undefined;
  const spread = rounds > 1 ? ` (rounds ${ratios.map((value) => `${value.toFixed(2)}x`).join(', ')})` : '';
  return {
    below,
    text: [
      `  ${label(comparison.ours)}: ${side(ours)}`,
      `    vs ${label(comparison.baseline)}: ${side(baseline)}`,
      `    ratio ${ratio.toFixed(2)}x${spread}, target ${target === undefined ? '—' : `≥ ${target}x`}: ${verdict};` +
        ` peak RSS ${megabytes(peak(ours))} (ours) / ${megabytes(peak(baseline))} (baseline)`,
    ].join('\n'),
  };
}

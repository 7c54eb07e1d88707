import type { BenchCase, Comparison, SideResult } from './harness.js';

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

/** One line: ours, the baseline, the ratio, the target and PASS/BELOW, and both peak RSS values. */
export function formatComparison(
  bench: BenchCase,
  comparison: Comparison,
  ours: SideResult,
  baseline: SideResult,
): { text: string; below: boolean } {
  const ratio = ours.rate / baseline.rate;
  const target = comparison.target;
  const below = target !== undefined && ratio < target;
  const verdict = target === undefined ? 'report' : below ? 'BELOW' : 'PASS';
  const label = (name: string): string => bench.sides[name]?.label ?? name;
  const note = (result: SideResult): string => (result.note === undefined ? '' : ` (${result.note})`);
  return {
    below,
    text: [
      `  ${label(comparison.ours)}: ${rate(ours.rate, bench.unit)}${note(ours)}`,
      `    vs ${label(comparison.baseline)}: ${rate(baseline.rate, bench.unit)}${note(baseline)}`,
      `    ratio ${ratio.toFixed(2)}x, target ${target === undefined ? '—' : `≥ ${target}x`}: ${verdict};` +
        ` peak RSS ${megabytes(ours.peakRssBytes)} (ours) / ${megabytes(baseline.peakRssBytes)} (baseline)`,
    ].join('\n'),
  };
}

// The deterministic people table that the pipeline's and the CLI's pipeline tests both convert.

/** A CSV of `rows` people: id, age, country, score, label (deterministic, no randomness). */
export function peopleCsv(rows: number, reversed = false): string {
  const countries = ['DE', 'FR', 'US', 'JP'];
  const lines = Array.from({ length: rows }, (_, index) => {
    const age = (index * 7) % 60;
    return `p${index},${age},${countries[index % 4]},${(index % 10) / 4},${index % 3}`;
  });
  if (reversed) lines.reverse();
  return `id,age,country,score,label\n${lines.join('\n')}\n`;
}

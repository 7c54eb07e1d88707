const count = new Intl.NumberFormat('en');

/** `1 record`, `2,048 records`: a count (with thousands separators) and its noun, singular or plural. */
export function counted(value: number, noun: string): string {
  return `${count.format(value)} ${noun}${value === 1 ? '' : 's'}`;
}

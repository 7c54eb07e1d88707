import { TfpipeError } from '../errors/tfpipe-error.js';

/** The most patterns one glob's `{a,b}` alternatives may expand to. */
export const MAX_GLOB_ALTERNATIVES = 1024;

/** A run of text and `{…}` groups; a group is a list of alternatives, each itself a sequence. */
type Sequence = readonly (string | readonly Sequence[])[];

/** The matching `}` of every `{` that has one; an unmatched `{` or `}` is plain text. */
function matchBraces(pattern: string): Map<number, number> {
  const pairs = new Map<number, number>();
  const open: number[] = [];
  for (let index = 0; index < pattern.length; index++) {
    if (pattern[index] === '{') open.push(index);
    else if (pattern[index] === '}' && open.length > 0) pairs.set(open.pop()!, index);
  }
  return pairs;
}

function parseSequence(pattern: string, start: number, end: number, pairs: Map<number, number>): Sequence {
  const parts: (string | Sequence[])[] = [];
  let text = '';
  for (let index = start; index < end; index++) {
    const close = pattern[index] === '{' ? pairs.get(index) : undefined;
    if (close === undefined) {
      text += pattern[index];
      continue;
    }
    if (text !== '') parts.push(text);
    text = '';
    const alternatives: Sequence[] = [];
    let from = index + 1;
    for (let inner = index + 1; inner <= close; inner++) {
      if (pattern[inner] === '{' && pairs.has(inner)) inner = pairs.get(inner)!;
      else if (pattern[inner] === ',' || inner === close) {
        alternatives.push(parseSequence(pattern, from, inner, pairs));
        from = inner + 1;
      }
    }
    parts.push(alternatives);
    index = close;
  }
  if (text !== '') parts.push(text);
  return parts;
}

/** How many patterns `sequence` expands to, or `Infinity` once past `limit` (never computed further). */
function countOf(sequence: Sequence, limit: number): number {
  let count = 1;
  for (const part of sequence) {
    if (typeof part === 'string') continue;
    let sum = 0;
    for (const alternative of part) {
      sum += countOf(alternative, limit);
      if (sum > limit) return Infinity;
    }
    count *= sum;
    if (count > limit) return Infinity;
  }
  return count;
}

function expand(sequence: Sequence): string[] {
  let results = [''];
  for (const part of sequence) {
    if (typeof part === 'string') results = results.map((result) => result + part);
    else {
      const tails = part.flatMap(expand);
      results = results.flatMap((result) => tails.map((tail) => result + tail));
    }
  }
  return results;
}

/**
 * The patterns `{a,b}` alternatives stand for, nested ones too: `x.{gz,{zz,tfrecord}}` gives three.
 * The count is computed before anything is expanded, so `{a,b}` repeated 24 times (16 million
 * patterns) is refused at once instead of filling memory.
 * @throws TfpipeError `INVALID_OPTION` when the pattern expands to more than `limit` patterns.
 */
export function expandBraces(pattern: string, limit = MAX_GLOB_ALTERNATIVES): string[] {
  const pairs = matchBraces(pattern);
  if (pairs.size === 0) return [pattern];
  const sequence = parseSequence(pattern, 0, pattern.length, pairs);
  if (countOf(sequence, limit) > limit) {
    throw new TfpipeError(
      'INVALID_OPTION',
      `glob ${JSON.stringify(pattern)} expands to more than ${limit} patterns`,
      { stage: 'glob', fatal: true, reason: 'use fewer {a,b} alternatives or a wildcard' },
    );
  }
  return [...new Set(expand(sequence))];
}

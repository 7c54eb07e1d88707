import { TfpipeError } from '../errors/tfpipe-error.js';
import { expandBraces, MAX_GLOB_ALTERNATIVES } from './expand-braces.js';

/** The longest glob accepted, in characters (Linux's PATH_MAX). */
export const MAX_GLOB_LENGTH = 4096;

type Token =
  | { readonly type: 'char'; readonly char: string }
  | { readonly type: 'any' }
  | { readonly type: 'star' }
  | {
      readonly type: 'class';
      readonly negated: boolean;
      readonly ranges: readonly (readonly [number, number])[];
    };

/** One `/`-separated part of a pattern. */
export type GlobSegment =
  | { readonly type: 'literal'; readonly text: string }
  | { readonly type: 'globstar' }
  | { readonly type: 'wildcard'; readonly tokens: readonly Token[]; readonly dot: boolean };

/** A glob compiled once: its brace alternatives, each a list of segments. */
export interface CompiledGlob {
  /** The pattern as given. */
  readonly source: string;
  /** One entry per `{a,b}` alternative: whether it starts at `/`, and its segments. */
  readonly alternatives: readonly { readonly absolute: boolean; readonly segments: readonly GlobSegment[] }[];
}

const GLOB_CHARACTERS = /[*?[{]/;

/** True when `text` holds glob syntax (`*`, `?`, `[…]`, `{a,b}`). */
export function isGlob(text: string): boolean {
  return GLOB_CHARACTERS.test(text);
}

function invalid(pattern: string, reason: string): TfpipeError {
  return new TfpipeError('INVALID_OPTION', `invalid glob ${JSON.stringify(pattern)}`, {
    stage: 'glob',
    fatal: true,
    reason,
  });
}

/** `[…]` starting at `start` (`[!…]`/`[^…]` negate, `a-z` ranges, a leading `]` is literal). */
function parseClass(chars: readonly string[], start: number, pattern: string): [Token, number] | undefined {
  let index = start + 1;
  const negated = chars[index] === '!' || chars[index] === '^';
  if (negated) index++;
  const first = index;
  const ranges: [number, number][] = [];
  for (; index < chars.length; index++) {
    const char = chars[index]!;
    if (char === ']' && index > first) return [{ type: 'class', negated, ranges }, index];
    const low = char.codePointAt(0)!;
    if (chars[index + 1] === '-' && chars[index + 2] !== undefined && chars[index + 2] !== ']') {
      const high = chars[index + 2]!.codePointAt(0)!;
      if (high < low) throw invalid(pattern, `range "${char}-${chars[index + 2]}" is out of order`);
      ranges.push([low, high]);
      index += 2;
    } else ranges.push([low, low]);
  }
  return undefined; // no closing `]`: the `[` is plain text
}

function compileSegment(segment: string, pattern: string): GlobSegment {
  if (segment === '**') return { type: 'globstar' };
  if (!/[*?[]/.test(segment)) return { type: 'literal', text: segment };
  const chars = Array.from(segment);
  const tokens: Token[] = [];
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index]!;
    if (char === '*') {
      if (tokens.at(-1)?.type !== 'star') tokens.push({ type: 'star' });
    } else if (char === '?') tokens.push({ type: 'any' });
    else if (char === '[' && parseClass(chars, index, pattern) !== undefined) {
      const [token, end] = parseClass(chars, index, pattern)!;
      tokens.push(token);
      index = end;
    } else tokens.push({ type: 'char', char });
  }
  return { type: 'wildcard', tokens, dot: segment.startsWith('.') };
}

/**
 * Compiles a glob: `*` (any run of characters), `?` (one), `[abc]`, `[a-z]`, `[!a-z]`, `**` (any number
 * of directories, as a whole segment) and `{a,b}` alternatives (nested too, at most
 * {@link MAX_GLOB_ALTERNATIVES}). Wildcards never match `/` nor a leading `.`.
 * @throws TfpipeError `INVALID_OPTION` naming the pattern: a range out of order (`[z-a]`), too many
 * alternatives, a pattern longer than {@link MAX_GLOB_LENGTH}.
 */
export function compileGlob(pattern: string): CompiledGlob {
  if (pattern.length > MAX_GLOB_LENGTH) {
    throw invalid(pattern.slice(0, 40) + '…', `longer than ${MAX_GLOB_LENGTH} characters`);
  }
  const alternatives = expandBraces(pattern).map((alternative) => ({
    absolute: alternative.startsWith('/'),
    segments: alternative
      .split('/')
      .filter((segment) => segment !== '')
      .map((segment) => compileSegment(segment, pattern)),
  }));
  return { source: pattern, alternatives };
}

function matchesToken(token: Token, char: string): boolean {
  if (token.type === 'any') return true;
  if (token.type === 'char') return token.char === char;
  if (token.type === 'star') return false;
  const code = char.codePointAt(0)!;
  return token.ranges.some(([low, high]) => code >= low && code <= high) !== token.negated;
}

/**
 * True when one path segment `name` matches `segment`. Linear in the name per star: the scan keeps
 * only the last `*` to fall back to (an earlier one can never do better), so no pattern backtracks
 * exponentially the way `*a*a*a…b` does in a regular expression.
 */
export function matchesSegment(segment: GlobSegment, name: string): boolean {
  if (segment.type === 'literal') return segment.text === name;
  if (name.startsWith('.') && (segment.type === 'globstar' || !segment.dot)) return false;
  if (segment.type === 'globstar') return true;
  const tokens = segment.tokens;
  const chars = Array.from(name);
  let tokenIndex = 0;
  let charIndex = 0;
  let starToken = -1;
  let starChar = 0;
  while (charIndex < chars.length) {
    const token = tokens[tokenIndex];
    if (token?.type === 'star') {
      starToken = tokenIndex++;
      starChar = charIndex;
    } else if (token !== undefined && matchesToken(token, chars[charIndex]!)) {
      tokenIndex++;
      charIndex++;
    } else if (starToken < 0) return false;
    else {
      tokenIndex = starToken + 1;
      charIndex = ++starChar;
    }
  }
  while (tokens[tokenIndex]?.type === 'star') tokenIndex++;
  return tokenIndex === tokens.length;
}

/**
 * True when `path` (`/`-separated) matches the glob. The segments run through the pattern as a set of
 * states (an NFA), so `**` repeated many times costs no more than once.
 */
export function matchesGlob(glob: CompiledGlob | string, path: string): boolean {
  const compiled = typeof glob === 'string' ? compileGlob(glob) : glob;
  const names = path.split('/').filter((name) => name !== '');
  return compiled.alternatives.some(({ absolute, segments }) => {
    if (absolute !== path.startsWith('/')) return false;
    let states = closure(segments, [0]);
    for (const name of names) {
      const next: number[] = [];
      for (const state of states) {
        const segment = segments[state];
        if (segment === undefined || !matchesSegment(segment, name)) continue;
        next.push(segment.type === 'globstar' ? state : state + 1);
      }
      states = closure(segments, next);
    }
    return states.has(segments.length);
  });
}

/** The states plus those reached by letting a `**` match no directory. */
export function closure(segments: readonly GlobSegment[], states: Iterable<number>): Set<number> {
  const result = new Set<number>();
  for (let state of states) {
    result.add(state);
    while (segments[state]?.type === 'globstar') result.add(++state);
  }
  return result;
}

export { MAX_GLOB_ALTERNATIVES };

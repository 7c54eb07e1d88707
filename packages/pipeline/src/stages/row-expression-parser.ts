import { TfpipeError } from '@tfpipe/core';

/** A literal of the expression language. */
export type ExpressionLiteral = string | number | bigint | boolean | null;

/** The syntax tree of a row expression. */
export type ExpressionNode =
  | { readonly type: 'literal'; readonly value: ExpressionLiteral }
  | { readonly type: 'field'; readonly name: string }
  | {
      readonly type: 'compare';
      readonly op: '==' | '!=' | '<' | '<=' | '>' | '>=';
      readonly left: ExpressionNode;
      readonly right: ExpressionNode;
    }
  | {
      readonly type: 'in';
      readonly negate: boolean;
      readonly left: ExpressionNode;
      readonly list: readonly ExpressionLiteral[];
    }
  | { readonly type: 'and' | 'or'; readonly left: ExpressionNode; readonly right: ExpressionNode }
  | { readonly type: 'not'; readonly operand: ExpressionNode };

interface Token {
  readonly kind: 'number' | 'string' | 'name' | 'op' | 'end';
  readonly text: string;
  readonly value?: ExpressionLiteral;
  /** 1-based character column. */
  readonly column: number;
}

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/;
const NAME = /^[A-Za-z_][A-Za-z0-9_./]*/;
const OPERATORS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '=', '!', '(', ')', '[', ']', ','];
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };

function syntaxError(detail: string, column: number): TfpipeError {
  return new TfpipeError('INVALID_OPTION', detail, {
    stage: 'rowExpression',
    fatal: true,
    position: { column },
  });
}

function numberValue(text: string): number | bigint {
  if (/^-?\d+$/.test(text)) {
    const value = Number(text);
    return Number.isSafeInteger(value) ? value : BigInt(text);
  }
  return Number(text);
}

function readString(text: string, start: number): [string, number] {
  const quote = text[start]!;
  let value = '';
  let at = start + 1;
  while (at < text.length && text[at] !== quote) {
    if (text[at] === '\\') {
      const escaped = ESCAPES[text[at + 1] ?? ''];
      if (escaped === undefined) throw syntaxError('unknown escape in string', at + 1);
      value += escaped;
      at += 2;
    } else value += text[at++];
  }
  if (at >= text.length) throw syntaxError('unterminated string', start + 1);
  return [value, at + 1];
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    const column = at + 1;
    const rest = text.slice(at);
    if (char === '"' || char === "'") {
      const [value, end] = readString(text, at);
      tokens.push({ kind: 'string', text: text.slice(at, end), value, column });
      at = end;
      continue;
    }
    if (char === '`') {
      const end = text.indexOf('`', at + 1);
      if (end < 0) throw syntaxError('unterminated `name`', column);
      tokens.push({ kind: 'name', text: text.slice(at + 1, end), column });
      at = end + 1;
      continue;
    }
    const number = NUMBER.exec(rest);
    const previous = tokens[tokens.length - 1];
    const afterValue =
      previous !== undefined && (previous.kind !== 'op' || previous.text === ')' || previous.text === ']');
    if (number !== null && !(char === '-' && afterValue)) {
      tokens.push({ kind: 'number', text: number[0], value: numberValue(number[0]), column });
      at += number[0].length;
      continue;
    }
    const name = NAME.exec(rest);
    if (name !== null) {
      tokens.push({ kind: 'name', text: name[0], column });
      at += name[0].length;
      continue;
    }
    const op = OPERATORS.find((candidate) => rest.startsWith(candidate));
    if (op === undefined) throw syntaxError(`unexpected ${JSON.stringify(char)}`, column);
    tokens.push({ kind: 'op', text: op, column });
    at += op.length;
  }
  tokens.push({ kind: 'end', text: 'end of expression', column: text.length + 1 });
  return tokens;
}

const KEYWORDS: Readonly<Record<string, ExpressionLiteral>> = { true: true, false: false, null: null };
const COMPARISONS = new Set(['==', '=', '!=', '<', '<=', '>', '>=']);

/**
 * Parses a row expression (see `rowExpression`). Syntax errors are `INVALID_OPTION` with the
 * 1-based `column` of the offending character.
 */
export function parseRowExpression(text: string): ExpressionNode {
  if (typeof text !== 'string' || text.trim() === '') throw syntaxError('the expression is empty', 1);
  const tokens = tokenize(text);
  let at = 0;
  const peek = (): Token => tokens[at]!;
  const isWord = (word: string): boolean => peek().kind === 'name' && peek().text === word;
  const isOp = (op: string): boolean => peek().kind === 'op' && peek().text === op;
  const unexpected = (expected: string): never => {
    const token = peek();
    throw syntaxError(
      `expected ${expected}, got ${token.kind === 'end' ? 'the end' : JSON.stringify(token.text)}`,
      token.column,
    );
  };

  const literal = (): ExpressionLiteral => {
    const token = peek();
    if (token.kind === 'number' || token.kind === 'string') {
      at++;
      return token.value!;
    }
    if (token.kind === 'name' && token.text in KEYWORDS) {
      at++;
      return KEYWORDS[token.text]!;
    }
    return unexpected('a number, a string, true, false or null');
  };
  const primary = (): ExpressionNode => {
    const token = peek();
    if (isOp('(')) {
      at++;
      const inner = or();
      if (!isOp(')')) unexpected('")"');
      at++;
      return inner;
    }
    if (
      token.kind === 'name' &&
      !(token.text in KEYWORDS) &&
      !['and', 'or', 'not', 'in'].includes(token.text)
    ) {
      at++;
      return { type: 'field', name: token.text };
    }
    return { type: 'literal', value: literal() };
  };
  const list = (): ExpressionLiteral[] => {
    if (!isOp('[') && !isOp('(')) unexpected('a list like [1, 2] after "in"');
    const close = isOp('[') ? ']' : ')';
    at++;
    const values: ExpressionLiteral[] = [];
    while (!isOp(close)) {
      values.push(literal());
      if (isOp(',')) at++;
      else if (!isOp(close)) unexpected(`"," or "${close}"`);
    }
    at++;
    return values;
  };
  const comparison = (): ExpressionNode => {
    const left = primary();
    const token = peek();
    if (token.kind === 'op' && COMPARISONS.has(token.text)) {
      at++;
      const op = (token.text === '=' ? '==' : token.text) as '==' | '!=' | '<' | '<=' | '>' | '>=';
      return { type: 'compare', op, left, right: primary() };
    }
    if (isWord('in')) {
      at++;
      return { type: 'in', negate: false, left, list: list() };
    }
    if (isWord('not') && tokens[at + 1]?.kind === 'name' && tokens[at + 1]?.text === 'in') {
      at += 2;
      return { type: 'in', negate: true, left, list: list() };
    }
    return left;
  };
  const not = (): ExpressionNode => {
    if (isWord('not') || isOp('!')) {
      at++;
      return { type: 'not', operand: not() };
    }
    return comparison();
  };
  const and = (): ExpressionNode => {
    let left = not();
    while (isWord('and') || isOp('&&')) {
      at++;
      left = { type: 'and', left, right: not() };
    }
    return left;
  };
  function or(): ExpressionNode {
    let left = and();
    while (isWord('or') || isOp('||')) {
      at++;
      left = { type: 'or', left, right: and() };
    }
    return left;
  }
  const tree = or();
  if (peek().kind !== 'end') unexpected('"and", "or" or the end');
  return tree;
}

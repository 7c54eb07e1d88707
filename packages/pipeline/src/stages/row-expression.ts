import { filterRows, type Reporter } from '@tfpipe/core';
import { parseRowExpression } from './row-expression-parser.js';
import type { ExpressionLiteral, ExpressionNode } from './row-expression-parser.js';
import { rowValue } from './row-value.js';

type Scalar = string | number | bigint | boolean | undefined;
const NUMERIC = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** A string as a number when it is one (CSV cells are text), else undefined. */
function asNumber(value: Scalar): number | bigint | undefined {
  if (typeof value === 'number' || typeof value === 'bigint') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && NUMERIC.test(value)) {
    const text = value.trim();
    if (/^[+-]?\d+$/.test(text)) {
      const number = Number(text);
      return Number.isSafeInteger(number) ? number : BigInt(text);
    }
    return Number(text);
  }
  return undefined;
}

function compareScalars(op: string, left: Scalar, right: Scalar): boolean {
  if (left === undefined || right === undefined) {
    const same = left === right;
    return op === '==' ? same : op === '!=' ? !same : false;
  }
  let a: string | number | bigint;
  let b: string | number | bigint;
  const numeric =
    typeof left === 'number' ||
    typeof left === 'bigint' ||
    typeof right === 'number' ||
    typeof right === 'bigint';
  if (numeric) {
    const x = asNumber(left);
    const y = asNumber(right);
    if (x === undefined || y === undefined) return op === '!=';
    a = x;
    b = y;
  } else {
    // A boolean compares with text as `true` / `false` (CSV cells), case-insensitively.
    const boolean = typeof left === 'boolean' || typeof right === 'boolean';
    a = boolean ? String(left).toLowerCase() : String(left);
    b = boolean ? String(right).toLowerCase() : String(right);
  }
  switch (op) {
    case '==':
      return a == b;
    case '!=':
      return a != b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    default:
      return a >= b;
  }
}

function values(node: ExpressionNode, row: unknown): Scalar[] {
  if (node.type === 'literal') return [node.value === null ? undefined : node.value];
  if (node.type === 'field') {
    const value = rowValue(row, node.name);
    return Array.isArray(value) ? (value as Scalar[]) : [value as Scalar];
  }
  return [evaluate(node, row)];
}

function truthy(value: Scalar): boolean {
  if (value === undefined || value === false || value === 0 || value === 0n) return false;
  if (typeof value === 'string') return !['', '0', 'false'].includes(value.trim().toLowerCase());
  return true;
}

function evaluate(node: ExpressionNode, row: unknown): boolean {
  switch (node.type) {
    case 'and':
      return evaluate(node.left, row) && evaluate(node.right, row);
    case 'or':
      return evaluate(node.left, row) || evaluate(node.right, row);
    case 'not':
      return !evaluate(node.operand, row);
    case 'compare': {
      const left = values(node.left, row);
      const right = values(node.right, row);
      return left.some((a) => right.some((b) => compareScalars(node.op, a, b)));
    }
    case 'in': {
      const found = values(node.left, row).some((value) =>
        node.list.some((item: ExpressionLiteral) =>
          compareScalars('==', value, item === null ? undefined : item),
        ),
      );
      return node.negate ? !found : found;
    }
    default:
      return values(node, row).some(truthy);
  }
}

/**
 * Compiles a row expression into a predicate, without `eval`. The language:
 * - values: field names (`age`, `image/class/label`, or any name in backquotes `` `first name` ``),
 *   numbers (`18`, `-1.5`, `1e3`), strings (`'DE'`, `"a\"b"`), `true`, `false`, `null`;
 * - comparisons `==` (or `=`), `!=`, `<`, `<=`, `>`, `>=`; `x in [1, 2]`, `x not in ['a', 'b']`;
 * - `and` / `&&`, `or` / `||`, `not` / `!`, parentheses; a bare field is true when present and not
 *   `0`, `false` or empty.
 * Fields are read with `rowValue`, so CSV text, Parquet values, `Feature`s and Example features all
 * work; text that looks like a number compares as a number against a number. A missing field equals
 * only `null`; other comparisons with it are false. A multi-valued feature matches if any value does.
 *
 * @throws TfpipeError `INVALID_OPTION` with the 1-based `column` of a syntax error.
 */
export function rowExpression(expression: string): (row: unknown) => boolean {
  const tree = parseRowExpression(expression);
  return (row) => evaluate(tree, row);
}

/** `filterRows(rowExpression(expression))`: keeps the rows for which the expression is true. */
export function filterWhere<Row>(expression: string): TransformStream<Row, Row> & Reporter {
  const predicate = rowExpression(expression);
  return filterRows<Row>((row) => predicate(row));
}

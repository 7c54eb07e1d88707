/**
 * @module @tfpipe/pipeline/expression
 * The pipeline file's filter language on its own, web-standard (no `node:*` import): what a browser
 * page needs to filter Examples with the same expressions as a pipeline's `filter` transform.
 */
export { rowExpression } from './stages/row-expression.js';
export { parseRowExpression } from './stages/row-expression-parser.js';
export type { ExpressionNode, ExpressionLiteral } from './stages/row-expression-parser.js';

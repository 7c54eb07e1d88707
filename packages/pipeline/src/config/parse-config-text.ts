import { createRequire } from 'node:module';
import { TfpipeError } from '@tfpipe/core';
import type * as Yaml from 'yaml';

const require = createRequire(import.meta.url);

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

function parseError(reason: string, file: string, at: { line: number; column: number }): TfpipeError {
  return new TfpipeError('CONFIG_PARSE', 'invalid config file', {
    stage: 'config',
    fatal: true,
    position: { file, line: at.line, column: at.column },
    reason,
  });
}

/**
 * Parses a pipeline file: JSON (`.json`), or YAML (`.yaml`/`.yml`, YAML 1.2 with duplicate keys
 * refused; `yaml` overrides what the name says). Syntax errors are `CONFIG_PARSE` with the 1-based
 * line and column.
 */
export function parseConfigText(text: string, file: string, yaml = /\.ya?ml$/i.test(file)): unknown {
  if (yaml) {
    // Required on the first YAML file (Node caches it): JSON pipelines and `tfpipe convert` never load it.
    const { parseDocument } = require('yaml') as typeof Yaml;
    const document = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
    const [error] = document.errors;
    if (error !== undefined) {
      const position = error.linePos?.[0] ?? { line: 1, col: 1 };
      throw parseError(error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''), file, {
        line: position.line,
        column: position.col,
      });
    }
    return document.toJS();
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const message = (error as Error).message;
    const match = / in JSON at position (\d+)/.exec(message);
    const offset = match === null ? text.length : Number(match[1]);
    throw parseError(message.replace(/ in JSON at position \d+.*$/, ''), file, lineAndColumn(text, offset));
  }
}

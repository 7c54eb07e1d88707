import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { TfpipeError } from '@tfpipe/core';
import type { SideFile } from '@tfpipe/core/plugin';
import type { CsvSchema } from './csv-schema.js';

/** Sorts values by Unicode code point (the order of their UTF-8 bytes), not by UTF-16 unit. */
export function sortVocabulary(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareCodePoints);
}

function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const x = a.codePointAt(index)!;
    const y = b.codePointAt(index)!;
    if (x !== y) return x - y;
    if (x > 0xffff) index++;
  }
  return a.length - b.length;
}

/** The file name {@link saveVocabularies} uses for a feature: `vocabulary-<feature>.txt`, unsafe characters as `_`. */
export function vocabularyFileName(feature: string): string {
  return `vocabulary-${feature.replace(/[^A-Za-z0-9._-]/g, '_')}.txt`;
}

/**
 * The vocabulary files of `schema` as side files, one per string column with a vocabulary: one value
 * per line in id order (line 1 is id 0), UTF-8, as TensorFlow Transform's vocabulary files are:
 * readable with `tf.lookup.TextFileInitializer` or `StringLookup(vocabulary=path)`. The CSV plugin
 * contributes them to a pipeline's output.
 *
 * @throws TfpipeError `CSV_VALUE` (fatal) when a value contains a newline and so cannot be one line.
 */
export function vocabularyFiles(schema: CsvSchema | undefined): SideFile[] {
  const files: SideFile[] = [];
  for (const [feature, column] of Object.entries(schema?.columns ?? {})) {
    if (!Array.isArray(column.vocabulary)) continue;
    const values = column.vocabulary as readonly string[];
    const bad = values.find((value) => value.includes('\n') || value.includes('\r'));
    if (bad !== undefined) {
      throw new TfpipeError('CSV_VALUE', `vocabulary value ${JSON.stringify(bad)} contains a newline`, {
        fatal: true,
        position: { field: feature },
        reason: 'a vocabulary file has one value per line',
      });
    }
    files.push({ name: vocabularyFileName(feature), contents: values.map((value) => `${value}\n`).join('') });
  }
  return files;
}

/**
 * Writes each vocabulary of `schema` beside the output ({@link vocabularyFiles}).
 *
 * @returns the paths written.
 * @throws TfpipeError `CSV_VALUE` (fatal) when a value contains a newline and so cannot be one line.
 */
export async function saveVocabularies(directory: string, schema: CsvSchema): Promise<string[]> {
  const written: string[] = [];
  for (const { name, contents } of vocabularyFiles(schema)) {
    await mkdir(directory, { recursive: true });
    const file = path.join(directory, name);
    await writeFile(file, contents, 'utf8');
    written.push(file);
  }
  return written;
}

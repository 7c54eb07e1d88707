import { buildExamples, TfpipeError } from '@tfpipe/core';
import { fromArray } from '@tfpipe/core/testing';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { collect } from './__fixtures__/test-support.js';
import { csvFeatures } from './csv-features.js';

type Outcome = number | bigint | 'refused';

/** A column of one cell read by csvSource with a declared kind: its value, or refused. */
async function csvCell(text: string, kind: 'int64' | 'float'): Promise<Outcome> {
  const stream = new Blob([`x\n${text}\n`]).stream();
  try {
    const [row] = await collect(csvFeatures({ stream, schema: { x: kind } }));
    return row!.x!.value[0] as number | bigint;
  } catch (error) {
    if (TfpipeError.is(error)) return 'refused';
    throw error;
  }
}

/** The same text as a row value through core's buildExamples: its value, or refused. */
async function coreCell(text: string, kind: 'int64' | 'float'): Promise<Outcome> {
  try {
    const [example] = await collect(fromArray([{ x: text }]).pipeThrough(buildExamples({ x: kind })));
    const feature = example!.features.x!;
    return feature.value[0] as number | bigint;
  } catch (error) {
    if (TfpipeError.is(error)) return 'refused';
    throw error;
  }
}

// Cells CSV keeps as they are (no quote, delimiter, newline, surrounding space the reader might
// treat apart): digits, `_`, points, exponents, signs and the letters of inf / nan.
const cellText = fc
  .array(fc.constantFrom(...'0123456789_._e+-E9inftyaNIFx'.split('')), { minLength: 1, maxLength: 10 })
  .map((characters) => characters.join(''));

describe('one number grammar: CSV cells and core row values read the same numbers', () => {
  test('every text gives the same int64 and float, or is refused by both', async () => {
    const samples = fc.sample(cellText, { seed: 22, numRuns: 150 });
    const fixed = [
      '1_000',
      '-1_0.5e1_0',
      '+.5',
      '5.',
      '1e3',
      'inf',
      '-Infinity',
      'nan',
      '0x1F',
      '1__0',
      '_1',
    ];
    for (const text of [...fixed, ...samples]) {
      for (const kind of ['int64', 'float'] as const) {
        const csv = await csvCell(text, kind);
        const core = await coreCell(text, kind);
        // float32 narrowing: CSV refuses a number float32 cannot hold, core stores it rounded.
        if (kind === 'float' && csv === 'refused' && typeof core === 'number' && /\d/.test(text)) {
          const narrowed = Math.fround(core);
          if (!Number.isFinite(narrowed) || (narrowed === 0 && core !== 0)) continue;
        }
        // Float features hold float32 values in core, doubles until encoding in CSV rows.
        const stored = (value: Outcome): Outcome => (typeof value === 'number' ? Math.fround(value) : value);
        expect([text, kind, stored(csv)], text).toEqual([text, kind, stored(core)]);
      }
    }
  });
});

import { describe, expect, it } from 'vitest';
import { bytes, float, int64 } from '../model/feature.js';
import { example, sequenceExample } from '../model/example.js';
import { FeatureStatsCollector } from './feature-stats.js';
import { typescriptSpec } from './typescript-spec.js';

function statsOf(records: Parameters<FeatureStatsCollector['add']>[0][]) {
  const collector = new FeatureStatsCollector();
  for (const record of records) collector.add(record);
  return collector.result();
}

describe('typescriptSpec', () => {
  it('writes the @tfpipe/dataset parseExample spec with the choices of the TensorFlow spec', () => {
    const stats = statsOf([
      example({ age: int64(30), emb: float(1, 2, 3), name: bytes('a'), odd: int64(1), tags: bytes('x') }),
      example({
        age: int64(31),
        emb: float(4, 5, 6),
        name: bytes('b'),
        odd: float(1),
        tags: bytes('x', 'y'),
      }),
      example({ age: int64(32), emb: float(7, 8, 9), tags: bytes() }),
    ]);
    expect(typescriptSpec(stats)).toBe(
      [
        "import { parseExample, fixedLen, varLen } from '@tfpipe/dataset';",
        '',
        'export const parser = parseExample({',
        '  "age": fixedLen([], "int64"),',
        '  "emb": fixedLen([3], "float32"),',
        '  "name": varLen("string"), // missing from 1 of 3 records',
        '  // "odd": records disagree on its kind; no single spec parses it',
        '  "tags": varLen("string"), // list length varies from 0 to 2',
        '});',
        '',
      ].join('\n'),
    );
  });

  it('writes parseSequenceExample with fixedLenSequence for feature lists of one step length', () => {
    const stats = statsOf([
      sequenceExample({ id: int64(1) }, { frames: [float(1, 2), float(3, 4)] }),
      sequenceExample({ id: int64(2) }, {}),
    ]);
    expect(typescriptSpec(stats)).toBe(
      [
        "import { parseSequenceExample, fixedLen, fixedLenSequence } from '@tfpipe/dataset';",
        '',
        'export const parser = parseSequenceExample(',
        '  {',
        '    "id": fixedLen([], "int64"),',
        '  },',
        '  {',
        '    "frames": fixedLenSequence([2], "float32", { allowMissing: true }),',
        '  },',
        ');',
        '',
      ].join('\n'),
    );
  });
});

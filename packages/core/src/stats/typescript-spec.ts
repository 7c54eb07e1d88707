import type { DatasetStats } from './feature-stats.js';
import type { FeatureParseSpec } from './reader-spec.js';
import { readerSpec } from './reader-spec.js';

/** A TypeScript string literal (JSON's escapes are valid TypeScript escapes). */
function ts(text: string): string {
  return JSON.stringify(text);
}

function tsLine(spec: FeatureParseSpec): string {
  const comment = spec.note === undefined ? '' : ` // ${spec.note}`;
  const shape = `[${spec.shape.join(', ')}]`;
  switch (spec.parser) {
    case 'fixed':
      return `  ${ts(spec.name)}: fixedLen(${shape}, ${ts(spec.dtype)}),${comment}`;
    case 'sequence':
      // `@tfpipe/dataset` takes `allowMissing` on every FixedLenSequenceFeature, as TensorFlow does.
      return `  ${ts(spec.name)}: fixedLenSequence(${shape}, ${ts(spec.dtype)}${
        spec.allowMissing ? ', { allowMissing: true }' : ''
      }),${comment}`;
    case 'varlen':
      return `  ${ts(spec.name)}: varLen(${ts(spec.dtype)}),${comment}`;
    case 'skip':
      return `  // ${ts(spec.name)}: ${spec.note ?? 'no spec'}`;
  }
}

/**
 * TypeScript code for `@tfpipe/dataset`: the `parseExample` spec (or the context and sequence specs of
 * `parseSequenceExample`) built with `fixedLen` / `varLen` / `fixedLenSequence`, the same choices as
 * {@link tensorflowSpec} makes (both come from {@link readerSpec}).
 */
export function typescriptSpec(stats: DatasetStats): string {
  const spec = readerSpec(stats);
  const used = new Set(
    [...spec.features, ...spec.featureLists]
      .filter((feature) => feature.parser !== 'skip')
      .map((feature) =>
        feature.parser === 'fixed'
          ? 'fixedLen'
          : feature.parser === 'sequence'
            ? 'fixedLenSequence'
            : 'varLen',
      ),
  );
  if (spec.payloadType === 'Example') {
    const names = ['parseExample', ...[...used].sort()].join(', ');
    return [`import { ${names} } from '@tfpipe/dataset';`, '', 'export const parser = parseExample({']
      .concat(spec.features.map(tsLine), '});', '')
      .join('\n');
  }
  const names = ['parseSequenceExample', ...[...used].sort()].join(', ');
  return [
    `import { ${names} } from '@tfpipe/dataset';`,
    '',
    'export const parser = parseSequenceExample(',
    '  {',
  ]
    .concat(
      spec.features.map((line) => `  ${tsLine(line)}`),
      '  },',
      '  {',
      spec.featureLists.map((line) => `  ${tsLine(line)}`),
      '  },',
      ');',
      '',
    )
    .join('\n');
}

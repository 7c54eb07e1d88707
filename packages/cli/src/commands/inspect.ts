import { exampleToJsonText, isSequenceExample, sequenceExampleToJsonText, type Features } from '@tfpipe/core';
import { readExamples } from '@tfpipe/sink-tfrecord';
import type { FlagValues } from '../command.js';
import { booleanFlag, integerFlag } from '../flags.js';
import { writeLine, type CliIo } from '../io.js';
import { describeKind, previewValues } from '../preview.js';
import { printableName } from '../printable.js';
import { payloadTypeOf, readOptions } from './read-options.js';
import { tfrecordFiles } from './tfrecord-files.js';

function featureLines(features: Features, indent: string): string[] {
  const names = Object.keys(features).sort();
  // A loop, not `Math.max(...lengths)`: a record may have more features than a call takes arguments.
  let width = 0;
  for (const name of names) width = Math.max(width, Math.min(32, printableName(name).length));
  return names.map((name) => {
    const feature = features[name]!;
    return `${indent}${printableName(name).padEnd(width)}  ${describeKind(feature).padEnd(11)} ${previewValues(feature)}`;
  });
}

/** `tfpipe inspect`: a readable view of records, or their JSON form. */
export async function inspectFiles(
  values: FlagValues,
  positionals: readonly string[],
  io: CliIo,
): Promise<number> {
  const files = await tfrecordFiles(positionals, 'FILE to inspect', 'inspect', io);
  const json = booleanFlag(values, 'json');
  const limit = integerFlag(values, 'limit', 0) ?? (json ? Infinity : 10);
  const payloadType = await payloadTypeOf(values, files[0]);
  let shown = 0;
  if (limit === 0) return 0;
  for await (const record of readExamples(files, { ...readOptions(values), payloadType })) {
    if (json) {
      const text = isSequenceExample(record) ? sequenceExampleToJsonText(record) : exampleToJsonText(record);
      await writeLine(io.stdout, text);
    } else {
      await writeLine(io.stdout, `record ${shown} (${payloadType})`);
      if (isSequenceExample(record)) {
        await writeLine(io.stdout, '  context:');
        for (const line of featureLines(record.context, '    ')) await writeLine(io.stdout, line);
        await writeLine(io.stdout, '  feature lists:');
        for (const name of Object.keys(record.featureLists).sort()) {
          const steps = record.featureLists[name]!;
          await writeLine(io.stdout, `    ${printableName(name)}: ${steps.length} steps`);
          const first = steps.slice(0, 3).map((step, index) => ({ [`[${index}]`]: step }));
          for (const step of first) {
            for (const line of featureLines(step, '      ')) await writeLine(io.stdout, line);
          }
        }
      } else {
        for (const line of featureLines(record.features, '  ')) await writeLine(io.stdout, line);
      }
    }
    shown++;
    if (shown >= limit) break;
  }
  return 0;
}

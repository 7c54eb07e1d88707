import { basename, join } from 'node:path';
import { reportOf } from '@tfpipe/core';
import { saveVocabularies } from '@tfpipe/source-csv';
import { writeLabelMap, type LabelMap } from '@tfpipe/source-images';

/**
 * Label maps (image sources) and vocabularies (CSV string labels) go beside the output, so the ids
 * in it can be read back as names. Found in the sources' report details.
 */
export async function writeSidecars(directory: string, reporters: readonly object[]): Promise<string[]> {
  const written: string[] = [];
  for (const reporter of reporters) {
    const details = reportOf(reporter)?.details ?? {};
    const labelMap = details.labelMap as LabelMap | undefined;
    if (Array.isArray(labelMap) && labelMap.length > 0) {
      await writeLabelMap(join(directory, 'labels.txt'), labelMap);
      written.push('labels.txt');
    }
    const schema = details.schema as { columns?: Record<string, { vocabulary?: unknown }> } | undefined;
    if (
      schema?.columns !== undefined &&
      Object.values(schema.columns).some((column) => Array.isArray(column.vocabulary))
    ) {
      const files = await saveVocabularies(directory, schema as Parameters<typeof saveVocabularies>[1]);
      written.push(...files.map((file) => basename(file)));
    }
  }
  return written;
}

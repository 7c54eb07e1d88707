// Each entry's exports as users get them (imported by the package's name, from the built files):
// a name added to or removed from an entry is a decision made in review, here.
import { fileURLToPath } from 'node:url';
import * as csv from '@tfpipe/source-csv';
import { describe, expect, test } from 'vitest';
import { exportSurface } from '../../../test-support/export-surface.js';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));

describe('the entries of @tfpipe/source-csv', () => {
  test('@tfpipe/source-csv', async () => {
    expect(await exportSurface(packageDirectory, '.', csv)).toMatchInlineSnapshot(`
      [
        "CsvColumnSchema: type",
        "CsvColumnSchemaInput: type",
        "CsvColumnsOptions: type",
        "CsvFeatureRow: type",
        "CsvFeaturesOptions: type",
        "CsvKind: type",
        "CsvMissing: type",
        "CsvRow: type",
        "CsvSchema: type",
        "CsvSchemaInput: type",
        "CsvSourceOptions: type",
        "CsvSourcePluginOptions: type",
        "CsvSplitPoints: type",
        "CsvSplitPointsOptions: type",
        "csvExampleSpec: function",
        "csvFeatures: function",
        "csvSource: function",
        "csvSourceOptionsSchema: object",
        "csvSplitPoints: function",
        "csvToExamples: function",
        "inferCsvSchema: function",
        "loadSchema: function",
        "parseCsvSchema: function",
        "plugin: object",
        "saveSchema: function",
        "saveVocabularies: function",
        "vocabularyFiles: function",
      ]
    `);
  });
});

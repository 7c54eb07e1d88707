// Each entry's exports as users get them (imported by the package's name, from the built files):
// a name added to or removed from an entry is a decision made in review, here.
import { fileURLToPath } from 'node:url';
import * as images from '@tfpipe/source-images';
import * as header from '@tfpipe/source-images/header';
import { describe, expect, test } from 'vitest';
import { exportSurface } from '../../../test-support/export-surface.js';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));

describe('the entries of @tfpipe/source-images', () => {
  test('@tfpipe/source-images', async () => {
    expect(await exportSurface(packageDirectory, '.', images)).toMatchInlineSnapshot(`
      [
        "DEFAULT_IMAGE_KEYS: object",
        "IMAGE_KEY_KINDS: object",
        "ImageFeatureSpec: type",
        "ImageKeyRole: type",
        "ImageKeys: type",
        "ImageRecord: type",
        "ImageSourceDetails: type",
        "ImageSourceOptions: type",
        "ImageSourcePluginOptions: type",
        "InvalidBoxPolicy: type",
        "LabelEntry: type",
        "LabelMap: type",
        "LabelMapFormat: type",
        "NormalizedBox: type",
        "OutputFormat: type",
        "ResizeFit: type",
        "formatLabelMap: function",
        "imageExampleSpec: function",
        "imageExamples: function",
        "imageListing: function",
        "imageSource: function",
        "imageSourceOptionsSchema: object",
        "plugin: object",
        "writeLabelMap: function",
      ]
    `);
  });

  test('@tfpipe/source-images/header', async () => {
    expect(await exportSurface(packageDirectory, './header', header)).toMatchInlineSnapshot(`
      [
        "ImageFormat: type",
        "ImageHeader: type",
        "SniffedFormat: type",
        "readImageHeader: function",
        "sniffImageFormat: function",
      ]
    `);
  });
});

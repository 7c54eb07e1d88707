// Each entry's exports as users get them (imported by the package's name, from the built files):
// a name added to or removed from an entry is a decision made in review, here.
import { fileURLToPath } from 'node:url';
import * as template from '@tfpipe/source-template';
import { describe, expect, test } from 'vitest';
import { exportSurface } from '../../../test-support/export-surface.js';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));

describe('the entries of @tfpipe/source-template', () => {
  test('@tfpipe/source-template', async () => {
    expect(await exportSurface(packageDirectory, '.', template)).toMatchInlineSnapshot(`
      [
        "JsonRow: type",
        "JsonRowsSourceOptions: type",
        "jsonRowsSource: function",
      ]
    `);
  });
});

// Each entry's exports as users get them (imported by the package's name, from the built files):
// a name added to or removed from an entry is a decision made in review, here.
import { fileURLToPath } from 'node:url';
import * as entry from '@tfpipe/node-utils';
import * as options from '@tfpipe/node-utils/options';
import { describe, expect, test } from 'vitest';
import { exportSurface } from '../../../test-support/export-surface.js';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));

describe('the entries of @tfpipe/node-utils', () => {
  test('@tfpipe/node-utils', async () => {
    expect(await exportSurface(packageDirectory, '.', entry)).toMatchInlineSnapshot(`
      [
        "ExpandPathsOptions: type",
        "NativeCrc32c: type",
        "OpenedFile: type",
        "errnoOf: function",
        "expandPaths: function",
        "loadNativeCrc32c: function",
        "nativeCrc32cPath: function",
        "notAFile: function",
        "openRegularFile: function",
        "readError: function",
        "writeError: function",
      ]
    `);
  });

  test('@tfpipe/node-utils/options', async () => {
    expect(await exportSurface(packageDirectory, './options', options)).toMatchInlineSnapshot(`
      [
        "OptionRuleIssue: type",
        "namedOnce: function",
        "optionErrorPolicy: function",
        "optionFlag: function",
        "optionFunction: function",
        "optionName: function",
        "optionNames: function",
        "optionOneOf: function",
        "optionPaths: function",
        "optionWholeNumber: function",
        "optionsObject: function",
        "repeatedItem: function",
        "z: object",
      ]
    `);
  });

  test('z holds the zod builders the options are written with, and only those (the bundle carries no more)', () => {
    expect(Object.keys(options.z).sort()).toMatchInlineSnapshot(`
      [
        "array",
        "boolean",
        "custom",
        "enum",
        "int",
        "literal",
        "number",
        "record",
        "strictObject",
        "string",
        "toJSONSchema",
        "union",
        "unknown",
      ]
    `);
  });
});

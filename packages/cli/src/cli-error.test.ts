import { TfpipeError } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { cliError } from './cli-error.js';

const phrased = (detail: string, reason: string | undefined, flags: string[]): string =>
  (
    cliError(
      new TfpipeError('OUTPUT_EXISTS', detail, {
        position: { file: 'maxRecordBytes.tfrecord' },
        ...(reason === undefined ? {} : { reason }),
      }),
      flags,
    ) as TfpipeError
  ).message;

describe('cliError', () => {
  it('names the flag the command has', () => {
    expect(
      phrased('output already exists (pass overwrite: true to replace it)', undefined, ['overwrite']),
    ).toBe('output already exists (pass --overwrite to replace it) in maxRecordBytes.tfrecord');
    expect(phrased('too long', 'raise csvSource option maxRecordLength', ['max-record-length'])).toBe(
      'too long in maxRecordBytes.tfrecord: raise --max-record-length',
    );
  });

  it('names the pipeline key where the command has no flag, and never rewrites the position', () => {
    expect(phrased('length 9 exceeds maxRecordBytes 4', 'pass allowEmpty: true', [])).toBe(
      'length 9 exceeds source.options.maxRecordBytes 4 in maxRecordBytes.tfrecord: pass source.options.allowEmpty: true',
    );
  });

  it('leaves text that already names a flag or a key alone', () => {
    const text = 'pass --overwrite or source.options.allowEmpty: true';
    expect(phrased(text, undefined, ['overwrite'])).toBe(`${text} in maxRecordBytes.tfrecord`);
  });

  it('passes other errors through', () => {
    const error = new Error('overwrite: true');
    expect(cliError(error, ['overwrite'])).toBe(error);
  });
});

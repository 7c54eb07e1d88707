import { describe, expect, it } from 'vitest';
import { errorCodes, isErrorCode, registerErrorCodes, TFPIPE_ERROR_CODES } from './error-codes.js';
import { TfpipeError } from './tfpipe-error.js';

// What a plugin's `.d.ts` says, so that its code type-checks like tfpipe's own.
declare module './error-codes.js' {
  interface TfpipeErrorCodes {
    TEST_GEO_PROJECTION: true;
  }
}

describe('error codes a plugin registers', () => {
  it('are refused by TfpipeError until registered, then carried, printed and serialised like built-in ones', () => {
    expect(() => new TfpipeError('TEST_GEO_PROJECTION', 'no projection')).toThrow(
      'unknown TfpipeError code "TEST_GEO_PROJECTION": register it with registerErrorCodes([...])',
    );
    expect(isErrorCode('TEST_GEO_PROJECTION')).toBe(false);
    registerErrorCodes(['TEST_GEO_PROJECTION']);
    const error = new TfpipeError('TEST_GEO_PROJECTION', 'unknown projection', {
      stage: 'geoSource',
      position: { file: 'map.shp', recordIndex: 4 },
      reason: 'EPSG:9999',
    });
    expect(TfpipeError.is(error)).toBe(true);
    expect(error.code).toBe('TEST_GEO_PROJECTION');
    expect(error.message).toBe('unknown projection at record 4 of map.shp: EPSG:9999');
    expect(error.withPosition({ field: 'geometry' }).code).toBe('TEST_GEO_PROJECTION');
    expect(error.toJSON().code).toBe('TEST_GEO_PROJECTION');
    expect(isErrorCode('TEST_GEO_PROJECTION')).toBe(true);
    expect(errorCodes().slice(0, TFPIPE_ERROR_CODES.length)).toEqual(TFPIPE_ERROR_CODES);
    expect(errorCodes()).toContain('TEST_GEO_PROJECTION');
    expect(TFPIPE_ERROR_CODES).not.toContain('TEST_GEO_PROJECTION');
  });

  it('is idempotent, shares one registry across copies of core, and refuses malformed codes', () => {
    registerErrorCodes(['CSV_PARSE', 'TEST_SHARED', 'TEST_SHARED']);
    expect(errorCodes().filter((code: string) => code === 'TEST_SHARED')).toHaveLength(1);
    const shared = (globalThis as Record<symbol, Set<string>>)[Symbol.for('tfpipe.errorCodes')];
    expect(shared?.has('TEST_SHARED')).toBe(true);
    for (const bad of ['lower_case', 'TRAILING_', '_LEADING', 'SPACE CODE', '']) {
      expect(() => registerErrorCodes([bad])).toThrow(TypeError);
    }
    // A list with one bad code registers none of it.
    expect(() => registerErrorCodes(['TEST_PARTIAL', 'bad'])).toThrow(TypeError);
    expect(isErrorCode('TEST_PARTIAL')).toBe(false);
  });

  it('type-checks only declared codes', () => {
    // @ts-expect-error a code no one declared in TfpipeErrorCodes is a type error
    expect(() => new TfpipeError('TEST_UNDECLARED', 'x')).toThrow(TypeError);
  });
});

import { describe, expect, it } from 'vitest';
import type { TfpipeError } from '../errors/tfpipe-error.js';
import { rejectionOf } from '../testing/rejection.js';
import { checkOptions, optionsError, optionsSchema } from './check-options.js';
import type { StandardSchemaV1 } from './plugin-definition.js';

/** A hand-written Standard Schema (core has no schema library): `{ size?: positive integer }`, strict. */
const sizeSchema: StandardSchemaV1<unknown, { size?: number }> = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate(value) {
      const record = value as Record<string, unknown>;
      const unknown = Object.keys(record).filter((key) => key !== 'size');
      if (unknown.length > 0)
        return { issues: [{ message: `Unrecognized keys: ${unknown.map((key) => `"${key}"`).join(', ')}` }] };
      const size = record.size;
      if (size !== undefined && !(Number.isInteger(size) && Number(size) > 0))
        return { issues: [{ message: 'expected a whole number ≥ 1', path: ['size'] }] };
      return { value: record };
    },
  },
};

const thrown = (run: () => unknown): Promise<TfpipeError> => rejectionOf(Promise.resolve().then(run));

describe('checkOptions', () => {
  it('returns the checked options', () => {
    expect(checkOptions(sizeSchema, { size: 3 }, 'demo')).toEqual({ size: 3 });
  });

  it('is one fatal INVALID_OPTION naming the stage, the option and the value', async () => {
    const error = await thrown(() => checkOptions(sizeSchema, { size: 'big' }, 'demo'));
    expect([error.code, error.stage, error.fatal]).toEqual(['INVALID_OPTION', 'demo', true]);
    expect(error.message).toBe('demo option size: expected a whole number ≥ 1, got "big"');
  });

  it('names unknown options, and counts the problems it does not list', async () => {
    const error = await thrown(() => checkOptions(sizeSchema, { sise: 1, colour: 2 }, 'demo'));
    expect(error.message).toBe('demo option sise: unknown option (also colour)');
    const more = optionsError('demo', [{ message: 'a' }, { message: 'b' }, { message: 'c' }], {});
    expect(more.message).toBe('demo options: a (and 2 more problems)');
  });
});

describe('optionsSchema', () => {
  it('builds the schema on first use only, and tags it with the stage', () => {
    let built = 0;
    const schema = optionsSchema('demo', () => {
      built++;
      return sizeSchema;
    });
    expect([schema.stage, built]).toEqual(['demo', 0]);
    expect(schema['~standard'].validate({ size: 0 })).toEqual({
      issues: [{ message: 'expected a whole number ≥ 1', path: ['size'] }],
    });
    expect(schema['~standard'].vendor).toBe('test');
    expect(built).toBe(1);
  });
});

describe('optionsSchema().jsonSchema', () => {
  it("is the schema library's JSON Schema of the options' input, for draft-07", () => {
    const targets: string[] = [];
    const withJson = {
      '~standard': {
        ...sizeSchema['~standard'],
        jsonSchema: {
          input: ({ target }: { target: string }) => {
            targets.push(target);
            return { type: 'object', properties: { size: { type: 'integer', minimum: 1 } } };
          },
          output: () => ({}),
        },
      },
    };
    const schema = optionsSchema('demo', () => withJson);
    expect(schema.jsonSchema()).toEqual({
      type: 'object',
      properties: { size: { type: 'integer', minimum: 1 } },
    });
    expect(targets).toEqual(['draft-07']);
  });

  it('is undefined when the schema library makes none', () => {
    expect(optionsSchema('demo', () => sizeSchema).jsonSchema()).toBeUndefined();
  });
});

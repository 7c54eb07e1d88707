import { describe, expect, it } from 'vitest';
import { buildExamples } from './build-examples.js';
import { buildSequenceExamples } from './build-sequence-examples.js';
import { pipeline } from './run/pipeline.js';
import type { Example } from '../model/example.js';

// These tests are about compile errors: `pnpm exec tsc --noEmit` checks every `@ts-expect-error`
// below (an unneeded one is itself an error); the runtime part only builds the streams.
interface Person {
  age: string;
  name: string;
  scores: number[];
}
declare const people: ReadableStream<Person>;
const sink = new WritableStream<unknown>();

describe('buildExamples typing', () => {
  it('accepts specs that name fields of the row type, and computed features', () => {
    const typed = buildExamples.for<Person>();
    typed({
      age: 'int64',
      name: { kind: 'bytes' },
      years: { kind: 'int64', field: 'age' },
      initial: { kind: 'bytes', value: (row) => row.name.slice(0, 1) },
    });
    // @ts-expect-error -- "agee" is not a field of Person (shorthand)
    typed({ agee: 'int64' });
    // @ts-expect-error -- field "agee" does not exist
    typed({ years: { kind: 'int64', field: 'agee' } });
    // @ts-expect-error -- a feature named unlike any field needs field or value
    typed({ years: { kind: 'int64' } });
    // @ts-expect-error -- the computed value reads a field Person lacks
    typed({ years: { kind: 'int64', value: (row) => row.agee } }); // eslint-disable-line @typescript-eslint/no-unsafe-return
    // @ts-expect-error -- the row type alone as type argument: use buildExamples.for<Row>()
    buildExamples<Person>({ age: 'int64' });
    expect(typeof typed).toBe('function');
  });

  it('takes the row type from the pipeline around it', () => {
    const check = (): void => {
      pipeline(
        people,
        buildExamples({
          age: 'int64',
          doubled: { kind: 'float', value: (row) => row.scores.map((score) => score * 2) },
        }),
        sink,
      );
      // @ts-expect-error -- "agee" is not a field of the source's rows
      pipeline(people, buildExamples({ agee: 'int64' }), sink);
      // @ts-expect-error -- field "nmae" is not a field of the source's rows
      pipeline(people, buildExamples({ name: { kind: 'bytes', field: 'nmae' } }), sink);
    };
    expect(typeof check).toBe('function');
  });

  it('takes the row type from a declared stream type', () => {
    const stage: TransformStream<Person, Example> = buildExamples({ age: 'int64' });
    // @ts-expect-error -- "agee" is not a field of Person
    const misspelt: TransformStream<Person, Example> = buildExamples({ agee: 'int64' });
    expect([stage, misspelt]).toHaveLength(2);
  });

  it('allows any field name for untyped rows', () => {
    expect(buildExamples({ anything: 'int64', other: { kind: 'bytes', field: 'x' } })).toBeInstanceOf(
      TransformStream,
    );
  });

  it('checks SequenceExample specs the same way', () => {
    const typed = buildSequenceExamples.for<Person>();
    typed({ context: { name: 'bytes' }, featureLists: { scores: 'float' } });
    // @ts-expect-error -- "scorez" is not a field of Person
    typed({ featureLists: { scorez: 'float' } });
    // @ts-expect-error -- context field "nam" is not a field of Person
    typed({ context: { label: { kind: 'bytes', field: 'nam' } }, featureLists: {} });
    expect(typeof typed).toBe('function');
  });
});

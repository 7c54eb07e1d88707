import fc from 'fast-check';
import { TfpipeError } from '@tfpipe/core';
import { describe, expect, test } from 'vitest';
import { chunkedStream } from './__fixtures__/test-support.js';
import { csvToExamples } from './csv-features.js';
import { csvSource } from './csv-source.js';

// Seeded and bounded for CI; RELIABILITY_FULL=1 runs 20× more cases.
const FULL = process.env.RELIABILITY_FULL === '1';
const SEED = Number(process.env.RELIABILITY_SEED ?? 8);
const RUNS = FULL ? 4000 : 200;

/** Bytes that break CSV parsers: quotes, delimiters, CR/LF, BOMs, multibyte and invalid UTF-8. */
const hostileByte = fc.constantFrom(
  ...[
    0x22, 0x2c, 0x3b, 0x09, 0x0a, 0x0d, 0x61, 0x31, 0x2e, 0x2d, 0x65, 0xef, 0xbb, 0xbf, 0xe6, 0x9d, 0xb1,
    0xff, 0xc3, 0x00,
  ],
);

async function drain(stream: ReadableStream<unknown>): Promise<number> {
  let count = 0;
  for await (const _ of stream) count++;
  return count;
}

/** Runs `read` and returns the error, failing if it is anything but a TfpipeError. */
async function onlyTfpipeErrors(read: () => Promise<unknown>): Promise<TfpipeError | undefined> {
  try {
    await read();
    return undefined;
  } catch (error) {
    if (!TfpipeError.is(error)) throw new Error(`not a TfpipeError: ${String(error)}`, { cause: error });
    return error;
  }
}

describe('hostile CSV bytes', () => {
  test(`random bytes in random chunks: rows or a TfpipeError, never anything else (${RUNS} cases, seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostileByte, { maxLength: 300 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom('fail', 'skip'),
        fc.boolean(),
        async (bytes, sizes, onError, typed) => {
          const stream = chunkedStream(new Uint8Array(bytes), sizes);
          const options = { stream, onError, allowEmpty: true } as const;
          const error = await onlyTfpipeErrors(() =>
            drain(typed ? csvToExamples({ ...options, inferRows: 20 }) : csvSource(options)),
          );
          if (error !== undefined) expect(error.position.file).toBe('<stream>');
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

/** An endless stream of `byte` in 1 MiB chunks that counts what was pulled. */
function endless(byte: number, prefix: string): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  const chunk = new Uint8Array(1024 * 1024).fill(byte);
  let pulled = 0;
  let first = true;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = first ? new TextEncoder().encode(prefix) : chunk;
        first = false;
        pulled += next.length;
        controller.enqueue(next);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

describe('maxRecordLength', () => {
  test('an endless field is RECORD_TOO_LARGE at its line after about the limit, not unbounded memory', async () => {
    const { stream, pulled } = endless(0x61, 'a,b\n1,2\n3,');
    const error = await onlyTfpipeErrors(() =>
      drain(csvSource({ stream, maxRecordLength: 4 * 1024 * 1024 })),
    );
    expect(error?.code).toBe('RECORD_TOO_LARGE');
    expect(error?.fatal).toBe(true);
    expect(error?.position.line).toBe(3);
    expect(pulled()).toBeLessThanOrEqual(10 * 1024 * 1024);
  });

  test('a quote that never closes is RECORD_TOO_LARGE too, at the line it opened', async () => {
    const { stream } = endless(0x0a, 'a,b\n"');
    const error = await onlyTfpipeErrors(() => drain(csvSource({ stream, maxRecordLength: 1024 * 1024 })));
    expect(error?.code).toBe('RECORD_TOO_LARGE');
    expect(error?.position.line).toBe(2);
  });

  test('a record within the limit is read whole, and the option raises it', async () => {
    const cell = 'x'.repeat(3 * 1024 * 1024);
    const text = new TextEncoder().encode(`a,b\n${cell},1\n`);
    const small = await onlyTfpipeErrors(() =>
      drain(csvSource({ stream: chunkedStream(text, [65_536]), maxRecordLength: 1024 * 1024 })),
    );
    expect(small?.code).toBe('RECORD_TOO_LARGE');
    const rows: unknown[] = [];
    for await (const row of csvSource({
      stream: chunkedStream(text, [65_536]),
      maxRecordLength: 4 * 1024 * 1024,
    }))
      rows.push(row);
    expect(rows).toEqual([{ a: cell, b: '1' }]);
  });

  test('maxRecordLength is checked when the factory is called', () => {
    expect(() => csvSource({ stream: chunkedStream(new Uint8Array(0), [1]), maxRecordLength: 0 })).toThrow(
      /maxRecordLength/,
    );
  });
});

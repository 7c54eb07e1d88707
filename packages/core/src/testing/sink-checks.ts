import { reportOf } from '../contract/plugin-contract.js';
import { TfpipeError } from '../errors/tfpipe-error.js';
import type { Position, TfpipeErrorCode } from '../errors/tfpipe-error.js';
import { ConformanceError, expectThat, show, within } from './conformance-check.js';
import type { ConformanceCheck } from './conformance-check.js';

/**
 * What a sink plugin hands the sink conformance suite. `Place` is an isolated output location the
 * plugin prepares for each check (a temporary folder, an in-memory store …).
 */
export interface SinkSuiteOptions<Place, Chunk> {
  /** The plugin's name, shown in test titles, e.g. `'tfrecordSink'`. */
  readonly name: string;
  /** Prepares a fresh, empty output location; called before every check. */
  readonly setup: () => Place | Promise<Place>;
  /** Removes it; called after every check, passed or failed. @default nothing */
  readonly teardown?: (place: Place) => void | Promise<void>;
  /** Makes a fresh sink writing into `place`. */
  readonly create: (place: Place) => WritableStream<Chunk> | Promise<WritableStream<Chunk>>;
  /** The chunks to write: at least 3, with distinct keys. */
  readonly records: readonly Chunk[];
  /** The key of a written chunk, compared as `String(key)` with what `readBack` returns. */
  readonly keyOf: (chunk: Chunk) => unknown;
  /** Reads the finished output back and returns the keys of its records, in order. */
  readonly readBack: (place: Place) => Promise<readonly unknown[]>;
  /** The names of the files (or objects) under final names, i.e. output a reader would take as complete. */
  readonly listFinal: (place: Place) => Promise<readonly string[]>;
  /** Every name in `place`, temporaries included; after an abort it must be empty. @default not checked */
  readonly listAll?: (place: Place) => Promise<readonly string[]>;
  /** Chunks that make the sink fail, and what the error must carry. @default not checked */
  readonly bad?: {
    readonly records: readonly unknown[];
    readonly expectedCode: TfpipeErrorCode;
    readonly positionKeys: readonly (keyof Position)[];
  };
  /** Milliseconds a write, close or abort may take. @default 10000 */
  readonly timeoutMs?: number;
}

/** The sink conformance checks as plain functions (what `testSink` registers). */
export function sinkChecks<Place, Chunk>(options: SinkSuiteOptions<Place, Chunk>): ConformanceCheck[] {
  const { records, keyOf, readBack, listFinal } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const inPlace = (body: (place: Place) => Promise<void>) => async (): Promise<void> => {
    const place = await options.setup();
    try {
      await body(place);
    } finally {
      await options.teardown?.(place);
    }
  };
  const writeAll = async (
    writer: WritableStreamDefaultWriter<Chunk>,
    chunks: readonly unknown[],
  ): Promise<void> => {
    for (const chunk of chunks) await within(writer.write(chunk as Chunk), timeoutMs, 'write()');
  };
  if (records.length < 3) throw new ConformanceError('the sink suite needs at least 3 records');

  return [
    {
      name: 'empty input closes and reads back no records',
      run: inPlace(async (place) => {
        const writer = (await options.create(place)).getWriter();
        await within(writer.close(), timeoutMs, 'close()');
        const keys = await readBack(place);
        expectThat(keys.length === 0, `expected no records back, got ${keys.length}`);
      }),
    },
    {
      name: 'records read back complete and in write order',
      run: inPlace(async (place) => {
        const sink = await options.create(place);
        const writer = sink.getWriter();
        await writeAll(writer, records);
        await within(writer.close(), timeoutMs, 'close()');
        const keys = await readBack(place);
        const expected = records.map((record) => String(keyOf(record)));
        expectThat(
          keys.length === expected.length,
          `expected ${expected.length} records back, got ${keys.length}`,
        );
        keys.forEach((key, index) => {
          expectThat(
            String(key) === expected[index],
            `record ${index} reads back as ${show(key)}, expected ${expected[index]}`,
          );
        });
        const reported = reportOf(sink)?.records;
        expectThat(
          reported === undefined || reported === records.length,
          `the report counts ${reported} records, wrote ${records.length}`,
        );
      }),
    },
    {
      name: 'nothing is under a final name until close, then it is',
      run: inPlace(async (place) => {
        const writer = (await options.create(place)).getWriter();
        await writeAll(writer, records);
        await within(writer.ready, timeoutMs, 'ready');
        const before = await listFinal(place);
        expectThat(before.length === 0, `before close, final names exist: ${show(before)}`);
        await within(writer.close(), timeoutMs, 'close()');
        const after = await listFinal(place);
        expectThat(after.length > 0, 'after close, nothing is under a final name');
      }),
    },
    {
      name: 'abort leaves nothing under a final name',
      run: inPlace(async (place) => {
        const writer = (await options.create(place)).getWriter();
        await writeAll(writer, records);
        await within(writer.abort(new Error('conformance: abort')), timeoutMs, 'abort()');
        const finals = await listFinal(place);
        expectThat(finals.length === 0, `after abort, final names exist: ${show(finals)}`);
        if (options.listAll !== undefined) {
          const all = await options.listAll(place);
          expectThat(all.length === 0, `after abort, files are left behind: ${show(all)}`);
        }
      }),
    },
    ...(options.bad === undefined ? [] : [badCheck(options, options.bad, inPlace, timeoutMs)]),
  ];
}

function badCheck<Place, Chunk>(
  options: SinkSuiteOptions<Place, Chunk>,
  bad: NonNullable<SinkSuiteOptions<Place, Chunk>['bad']>,
  inPlace: (body: (place: Place) => Promise<void>) => () => Promise<void>,
  timeoutMs: number,
): ConformanceCheck {
  return {
    name: 'a bad record raises a TfpipeError with its code and position, and nothing final remains',
    run: inPlace(async (place) => {
      const writer = (await options.create(place)).getWriter();
      let caught: unknown;
      try {
        for (const chunk of bad.records) await within(writer.write(chunk as Chunk), timeoutMs, 'write()');
        await within(writer.close(), timeoutMs, 'close()');
      } catch (error) {
        caught = error;
      }
      if (caught instanceof ConformanceError) throw caught;
      expectThat(
        caught !== undefined,
        `the bad records were written without an error (expected ${bad.expectedCode})`,
      );
      expectThat(
        TfpipeError.is(caught),
        `expected a TfpipeError, got ${caught instanceof Error ? `${caught.name}: ${caught.message}` : show(caught)}`,
      );
      expectThat(
        caught.code === bad.expectedCode,
        `expected code ${bad.expectedCode}, got ${caught.code}: ${caught.message}`,
      );
      for (const key of bad.positionKeys) {
        expectThat(
          caught.position[key] !== undefined,
          `the error's position lacks "${key}": ${show(caught.position)}`,
        );
      }
      const finals = await options.listFinal(place);
      expectThat(finals.length === 0, `after the error, final names exist: ${show(finals)}`);
    }),
  };
}

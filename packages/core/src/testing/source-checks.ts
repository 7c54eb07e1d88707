import { reportOf } from '../contract/plugin-contract.js';
import { TfpipeError } from '../errors/tfpipe-error.js';
import type { Position, TfpipeErrorCode } from '../errors/tfpipe-error.js';
import { collect } from './collect.js';
import { ConformanceError, expectThat, show, sleep, within } from './conformance-check.js';
import type { ConformanceCheck } from './conformance-check.js';
import { activeFileResources } from './open-handles.js';

/**
 * What a source plugin hands the source conformance suite. `Fixture` is whatever `create` needs to
 * make a source (a path, a `{ path, options }` object, bytes …); the suite never looks inside it.
 */
export interface SourceSuiteOptions<Fixture, Row> {
  /** The plugin's name, shown in test titles, e.g. `'csvSource'`. */
  readonly name: string;
  /**
   * Makes a fresh source over `fixture`. Called once or more per check; may be async (to write the
   * fixture file first). The stream must be new each time.
   */
  readonly create: (fixture: Fixture) => ReadableStream<Row> | Promise<ReadableStream<Row>>;
  readonly fixtures: {
    /** Input with no rows (an empty file, a CSV with only a header, an empty folder): must close with zero rows. */
    readonly empty: Fixture;
    /** Input with a known number of rows in a known order. */
    readonly ordered: OrderedFixture<Fixture, Row>;
    /**
     * Input with many rows, for backpressure and cancellation: `rows` must exceed `readAhead` + 64,
     * so that a source which reads everything at once is caught.
     */
    readonly large: { readonly input: Fixture; readonly rows: number };
    /** Input with a record-level error, and what the error must carry. */
    readonly bad: BadFixture<Fixture>;
  };
  /**
   * How many rows the source may produce beyond what its consumer has read (its internal buffer,
   * e.g. the rows of one parsed chunk). Rows, not bytes.
   * @default 1024
   */
  readonly readAhead?: number;
  /**
   * How many rows the source has produced (enqueued) so far. By default its report's `records`
   * (`reportOf(source)?.records`), which a source keeps current as it enqueues.
   */
  readonly produced?: (source: ReadableStream<Row>) => number | undefined;
  /**
   * How many file handles are open now, process-wide or for this plugin. With it the cancellation
   * and error checks prove that files are released; without it they fall back to Node's active
   * file-system requests (see `activeFileResources`), or only check that cancel settles.
   */
  readonly openHandles?: () => number | Promise<number>;
  /**
   * Milliseconds the suite waits for a source to run ahead, or to release its files (polled up to 20
   * times for the release).
   * @default 50
   */
  readonly settleMs?: number;
  /**
   * Milliseconds any single read, cancel or full read may take before the check fails.
   * @default 10000
   */
  readonly timeoutMs?: number;
}

/** A fixture whose rows the ordering check compares. */
export interface OrderedFixture<Fixture, Row> {
  readonly input: Fixture;
  /** How many rows it yields. */
  readonly expectedCount: number;
  /** The key of a row (an id column, a file name …), compared as `String(key)`. */
  readonly keyOf: (row: Row) => unknown;
  /** The keys in input order. @default 0, 1, …, expectedCount - 1 */
  readonly expectedKeys?: readonly unknown[];
}

/** A fixture that must fail, and how. */
export interface BadFixture<Fixture> {
  readonly input: Fixture;
  /** The code of the `TfpipeError` the source must raise. */
  readonly expectedCode: TfpipeErrorCode;
  /** The position keys the error must carry (defined, not necessarily a given value). */
  readonly positionKeys: readonly (keyof Position)[];
  /** Exact position values to compare, if known. */
  readonly expectedPosition?: Position;
}

/** Settle periods `released` waits, at most, for a source's files to close. */
const RELEASE_POLLS = 20;

/**
 * The source conformance checks as plain functions, for `testSource` to register and for tests that
 * want to prove a broken source fails them.
 */
export function sourceChecks<Fixture, Row>(options: SourceSuiteOptions<Fixture, Row>): ConformanceCheck[] {
  const { create, fixtures } = options;
  const readAhead = options.readAhead ?? 1024;
  const settleMs = options.settleMs ?? 50;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const produced = options.produced ?? ((source: ReadableStream<Row>) => reportOf(source)?.records);
  const handles = async (): Promise<number | undefined> =>
    options.openHandles === undefined ? activeFileResources() : await options.openHandles();
  // A loaded machine can take longer than settleMs to run a close, so the count is polled for up to
  // RELEASE_POLLS settle periods before a handle counts as leaked.
  const released = async (baseline: number | undefined, when: string): Promise<void> => {
    if (baseline === undefined) return;
    let now: number | undefined;
    for (let poll = 0; poll < RELEASE_POLLS; poll++) {
      await sleep(settleMs);
      now = await handles();
      if (now !== undefined && now <= baseline) return;
    }
    expectThat(false, `${when}: ${now} file handles open, ${baseline} before`);
  };
  const make = (fixture: Fixture): Promise<ReadableStream<Row>> =>
    within(Promise.resolve(create(fixture)), timeoutMs, 'create()');

  return [
    {
      name: 'empty input yields no rows and closes',
      run: async () => {
        const rows = await within(collect(await make(fixtures.empty)), timeoutMs, 'reading the empty input');
        expectThat(rows.length === 0, `expected no rows from the empty input, got ${rows.length}`);
      },
    },
    {
      name: 'rows arrive complete and in input order',
      run: async () => {
        const { input, expectedCount, keyOf } = fixtures.ordered;
        const expected =
          fixtures.ordered.expectedKeys ?? Array.from({ length: expectedCount }, (_, index) => index);
        const rows = await within(collect(await make(input)), timeoutMs, 'reading the ordered input');
        expectThat(rows.length === expectedCount, `expected ${expectedCount} rows, got ${rows.length}`);
        rows.forEach((row, index) => {
          const key = keyOf(row);
          expectThat(
            String(key) === String(expected[index]),
            `row ${index} has key ${show(key)}, expected ${show(expected[index])}: rows are out of order`,
          );
        });
      },
    },
    {
      name: 'backpressure: it does not run ahead of its consumer',
      run: async () => {
        const consumed = 8;
        const { input, rows } = fixtures.large;
        if (rows <= readAhead + consumed + 64) {
          throw new ConformanceError(
            `the large fixture has ${rows} rows; it needs more than readAhead + ${consumed + 64}`,
          );
        }
        const source = await make(input);
        const reader = source.getReader();
        try {
          for (let index = 0; index < consumed; index++) {
            const { done } = await within(reader.read(), timeoutMs, `reading row ${index}`);
            expectThat(!done, `the large fixture ended after ${index} rows`);
          }
          await sleep(settleMs);
          const count = produced(source);
          if (count === undefined) {
            throw new ConformanceError(
              'the source exposes no count of produced rows: report `records` or pass `produced`',
            );
          }
          expectThat(
            count - consumed <= readAhead,
            `after ${consumed} rows were read the source had produced ${count}: more than readAhead (${readAhead}) ahead`,
          );
        } finally {
          await reader.cancel().catch(() => undefined);
        }
      },
    },
    {
      name: 'cancel mid-stream settles and releases its files',
      run: async () => {
        const baseline = await handles();
        const source = await make(fixtures.large.input);
        const reader = source.getReader();
        for (let index = 0; index < 3; index++)
          await within(reader.read(), timeoutMs, `reading row ${index}`);
        await within(reader.cancel(new Error('conformance: cancel')), timeoutMs, 'cancel()');
        const after = await within(reader.read(), timeoutMs, 'reading after cancel');
        expectThat(after.done, 'the source still yields rows after it was cancelled');
        await released(baseline, 'after cancel');
      },
    },
    {
      name: 'cancel before the first read settles and releases its files',
      run: async () => {
        const baseline = await handles();
        const source = await make(fixtures.large.input);
        await within(source.cancel(new Error('conformance: cancel')), timeoutMs, 'cancel()');
        await released(baseline, 'after an early cancel');
      },
    },
    {
      name: 'a bad record raises a TfpipeError with its code, stage and position',
      run: async () => {
        const { input, expectedCode, positionKeys, expectedPosition } = fixtures.bad;
        const baseline = await handles();
        let caught: unknown;
        try {
          await within(collect(await make(input)), timeoutMs, 'reading the bad input');
        } catch (error) {
          caught = error;
        }
        if (caught instanceof ConformanceError) throw caught;
        expectThat(
          caught !== undefined,
          `the bad input was read without an error (expected ${expectedCode})`,
        );
        expectThat(
          TfpipeError.is(caught),
          `expected a TfpipeError, got ${caught instanceof Error ? `${caught.name}: ${caught.message}` : show(caught)}`,
        );
        expectThat(
          caught.code === expectedCode,
          `expected code ${expectedCode}, got ${caught.code}: ${caught.message}`,
        );
        expectThat(typeof caught.stage === 'string' && caught.stage !== '', 'the error names no stage');
        for (const key of positionKeys) {
          expectThat(
            caught.position[key] !== undefined,
            `the error's position lacks "${key}": ${show(caught.position)}`,
          );
        }
        for (const [key, value] of Object.entries(expectedPosition ?? {})) {
          const actual = caught.position[key as keyof Position];
          expectThat(actual === value, `position.${key} is ${show(actual)}, expected ${show(value)}`);
        }
        await released(baseline, 'after the error');
      },
    },
  ];
}

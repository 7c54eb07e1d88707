import { describe, expect, it } from 'vitest';
import { attachReport, withPosition } from '../contract/plugin-contract.js';
import type { Reporter } from '../contract/plugin-contract.js';
import { TfpipeError } from '../errors/tfpipe-error.js';
import { ConformanceError, rejectionOf, sinkChecks, sourceChecks, testSink, testSource } from './index.js';
import type { SinkSuiteOptions, SourceSuiteOptions } from './index.js';

// An in-memory "file system" whose open handles can be counted, and a source and a sink over it,
// each with deliberate defects the suites must catch.
type Row = { id: number; bad?: boolean };
const disk = { open: 0 };
type Defect = 'eager' | 'leaky' | 'unordered' | 'positionless' | 'silent';

function memorySource(rows: readonly Row[], defect?: Defect): ReadableStream<Row> & Reporter {
  let index = 0;
  let produced = 0;
  let opened = false;
  const close = (): void => {
    if (opened) disk.open--;
    opened = false;
  };
  const order = defect === 'unordered' && rows.length > 1 ? [rows[1]!, rows[0]!, ...rows.slice(2)] : rows;
  const stream = new ReadableStream<Row>(
    {
      start(controller) {
        if (defect !== 'eager') return;
        for (const row of order) controller.enqueue(row);
        produced = order.length;
        controller.close();
      },
      pull(controller) {
        if (!opened) {
          disk.open++;
          opened = true;
        }
        const row = order[index];
        if (row === undefined) {
          close();
          controller.close();
          return;
        }
        if (row.bad === true && defect !== 'silent') {
          close();
          const position = defect === 'positionless' ? {} : { file: 'rows.mem', row: index };
          controller.error(new TfpipeError('CSV_VALUE', 'bad row', { stage: 'memorySource', position }));
          return;
        }
        produced++;
        controller.enqueue(withPosition({ ...row }, { file: 'rows.mem', row: index++ }));
      },
      cancel() {
        if (defect !== 'leaky') close();
      },
    },
    { highWaterMark: 4 },
  );
  return attachReport(stream, () => ({ stage: 'memorySource', records: produced }));
}

const rowsOf = (count: number): Row[] => Array.from({ length: count }, (_, id) => ({ id }));

function sourceSuite(defect?: Defect): SourceSuiteOptions<readonly Row[], Row> {
  return {
    name: `memorySource${defect === undefined ? '' : ` (${defect})`}`,
    create: (rows) => memorySource(rows, defect),
    fixtures: {
      empty: [],
      ordered: { input: rowsOf(10), expectedCount: 10, keyOf: (row) => row.id },
      large: { input: rowsOf(5000), rows: 5000 },
      bad: {
        input: [{ id: 0 }, { id: 1, bad: true }],
        expectedCode: 'CSV_VALUE',
        positionKeys: ['file', 'row'],
        expectedPosition: { row: 1 },
      },
    },
    readAhead: 64,
    openHandles: () => disk.open,
    settleMs: 10,
  };
}

type Place = { files: Map<string, unknown[]> };
function memorySink(place: Place, defect?: 'early-final' | 'dirty-abort'): WritableStream<Row> {
  const name = defect === 'early-final' ? 'out' : 'out.tmp';
  const chunks: unknown[] = [];
  place.files.set(name, chunks);
  let recordIndex = 0;
  return new WritableStream<Row>({
    write(row) {
      if (row.bad === true) {
        place.files.delete(name);
        throw new TfpipeError('FEATURE_TYPE', 'cannot write', {
          stage: 'memorySink',
          position: { recordIndex },
        });
      }
      recordIndex++;
      chunks.push(row.id);
    },
    close() {
      place.files.delete(name);
      place.files.set('out', chunks);
    },
    abort() {
      if (defect !== 'dirty-abort') place.files.delete(name);
      else place.files.set('out', chunks);
    },
  });
}

function sinkSuite(defect?: 'early-final' | 'dirty-abort'): SinkSuiteOptions<Place, Row> {
  return {
    name: `memorySink${defect === undefined ? '' : ` (${defect})`}`,
    setup: () => ({ files: new Map() }),
    create: (place) => memorySink(place, defect),
    records: rowsOf(5),
    keyOf: (row) => row.id,
    readBack: (place) => Promise.resolve(place.files.get('out') ?? []),
    listFinal: (place) => Promise.resolve([...place.files.keys()].filter((key) => !key.endsWith('.tmp'))),
    listAll: (place) => Promise.resolve([...place.files.keys()]),
    bad: {
      records: [{ id: 0 }, { id: 1, bad: true }],
      expectedCode: 'FEATURE_TYPE',
      positionKeys: ['recordIndex'],
    },
  };
}

testSource(sourceSuite());
testSink(sinkSuite());

async function failureOf(
  checks: { name: string; run: () => Promise<void> }[],
  name: string,
): Promise<unknown> {
  const check = checks.find((candidate) => candidate.name.startsWith(name));
  if (check === undefined) throw new Error(`no check named ${name}`);
  return check.run().then(
    () => 'passed',
    (error: unknown) => error,
  );
}

describe('the source suite catches broken sources', () => {
  it('a source that reads everything at once fails backpressure', async () => {
    const error = await failureOf(sourceChecks(sourceSuite('eager')), 'backpressure');
    expect(error).toBeInstanceOf(ConformanceError);
    expect(String(error)).toMatch(/had produced 5000/);
  });

  it('a source that keeps its file open after cancel fails cancellation', async () => {
    const error = await failureOf(sourceChecks(sourceSuite('leaky')), 'cancel mid-stream');
    disk.open = 0;
    expect(String(error)).toMatch(/file handles open/);
  });

  it('a source that reorders rows fails ordering', async () => {
    expect(String(await failureOf(sourceChecks(sourceSuite('unordered')), 'rows arrive'))).toMatch(
      /out of order/,
    );
  });

  it('a source whose errors carry no position fails the error check', async () => {
    expect(String(await failureOf(sourceChecks(sourceSuite('positionless')), 'a bad record'))).toMatch(
      /lacks "file"/,
    );
  });

  it('a source that swallows bad records fails the error check', async () => {
    expect(String(await failureOf(sourceChecks(sourceSuite('silent')), 'a bad record'))).toMatch(
      /without an error/,
    );
  });
});

describe('the sink suite catches broken sinks', () => {
  it('a sink that writes under the final name before close fails', async () => {
    expect(String(await failureOf(sinkChecks(sinkSuite('early-final')), 'nothing is under'))).toMatch(
      /before close/,
    );
  });

  it('a sink that leaves output behind on abort fails', async () => {
    expect(String(await failureOf(sinkChecks(sinkSuite('dirty-abort')), 'abort leaves'))).toMatch(
      /after abort/,
    );
  });
});

describe('rejectionOf', () => {
  it('gives the TfpipeError a promise rejects with, and fails on anything else', async () => {
    const error = new TfpipeError('INVALID_OPTION', 'bad', { stage: 'test' });
    expect(await rejectionOf(Promise.reject(error))).toBe(error);
    await expect(rejectionOf(Promise.resolve(1))).rejects.toThrow(/resolved/);
    await expect(rejectionOf(Promise.reject(new Error('plain')))).rejects.toThrow(/got Error: plain/);
  });
});

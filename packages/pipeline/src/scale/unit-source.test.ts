import { reportOf, TfpipeError } from '@tfpipe/core';
import { attachReport, type SourcePluginDefinition } from '@tfpipe/core/plugin';
import { expect, it } from 'vitest';
import type { PlanUnit, ScalePlan } from './plan-types.js';
import { unitSource } from './unit-source.js';

/** A CSV range after a 10-byte header. */
const range = (start: number, end: number, row: number): PlanUnit => ({
  input: 0,
  kind: 'bytes',
  start,
  end,
  headerEnd: 10,
  line: row + 2,
  row,
});

it("reports every unit's records and skipped records, byte offsets counted in the file", async () => {
  const plan = {
    units: [range(10, 100, 0), range(100, 200, 5), range(200, 300, 9)],
    inputs: [{ path: '/data/a.csv', size: 300, mtimeMs: 0 }],
    sourceOptions: {},
  } as unknown as ScalePlan;
  // A source that reads nothing, emits two rows and skips one record at byte 15 of its stream
  // (the header's 10 bytes, then the range).
  let opened = 0;
  const source = {
    kind: 'source',
    name: 'fake',
    description: 'a fake source',
    output: 'rows',
    options: undefined as never,
    create() {
      const unit = opened++;
      const readable = new ReadableStream<object>({
        start(controller) {
          controller.enqueue({ unit });
          controller.enqueue({ unit });
          controller.close();
        },
      });
      const error = new TfpipeError('CSV_PARSE', 'malformed record', {
        stage: 'fakeSource',
        position: { file: '/data/a.csv', byteOffset: 15 },
      });
      return Promise.resolve({
        readable: attachReport(readable, () => ({
          stage: 'fakeSource',
          records: 2,
          skipped: 1,
          skippedErrors: [error],
        })),
      });
    },
  } as unknown as SourcePluginDefinition;
  const wrapped = await unitSource(plan, source, {}, [0, 1, 2]).create({}, {} as never);
  const rows: unknown[] = [];
  for await (const row of wrapped.readable as ReadableStream<unknown>) rows.push(row);
  expect(rows).toHaveLength(6);
  const report = reportOf(wrapped.readable);
  expect(report).toMatchObject({ stage: 'fakeSource', records: 6, skipped: 3 });
  // The first range starts at the header's end (its stream is the file's bytes); the others follow the header.
  expect(report!.skippedErrors!.map((error) => error.position.byteOffset)).toEqual([15, 105, 205]);
  expect(report!.skippedErrors![1]!.message).toContain('byte 105');
});

import { describe, it } from 'vitest';
import { sinkChecks } from './sink-checks.js';
import type { SinkSuiteOptions } from './sink-checks.js';
import { sourceChecks } from './source-checks.js';
import type { SourceSuiteOptions } from './source-checks.js';

/**
 * Registers the source conformance suite with vitest: one `describe` named after the plugin, one
 * `it` per check of {@link sourceChecks}. Call it at the top level of a test file.
 *
 * @example
 * ```ts
 * testSource({
 *   name: 'csvSource',
 *   create: (path: string) => csvSource({ path }),
 *   fixtures: {
 *     empty: emptyCsv,
 *     ordered: { input: tenRows, expectedCount: 10, keyOf: (row) => row.id },
 *     large: { input: bigCsv, rows: 50_000 },
 *     bad: { input: raggedCsv, expectedCode: 'CSV_ROW_LENGTH', positionKeys: ['file', 'line'] },
 *   },
 *   openHandles: () => readdir('/proc/self/fd').then((fds) => fds.length),
 * });
 * ```
 */
export function testSource<Fixture, Row>(options: SourceSuiteOptions<Fixture, Row>): void {
  describe(`${options.name}: source conformance`, () => {
    for (const check of sourceChecks(options)) it(check.name, check.run);
  });
}

/**
 * Registers the sink conformance suite with vitest: one `describe` named after the plugin, one `it`
 * per check of {@link sinkChecks}. Call it at the top level of a test file.
 */
export function testSink<Place, Chunk>(options: SinkSuiteOptions<Place, Chunk>): void {
  describe(`${options.name}: sink conformance`, () => {
    for (const check of sinkChecks(options)) it(check.name, check.run);
  });
}

// Each entry's exports as users get them (imported by the package's name, from the built files):
// a name added to or removed from an entry is a decision made in review, here.
import { fileURLToPath } from 'node:url';
import * as core from '@tfpipe/core';
import * as internal from '@tfpipe/core/internal';
import * as plugin from '@tfpipe/core/plugin';
import * as protobuf from '@tfpipe/core/protobuf';
import * as testing from '@tfpipe/core/testing';
import { describe, expect, test } from 'vitest';
import { exportSurface } from '../../../test-support/export-surface.js';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));

describe('the entries of @tfpipe/core', () => {
  test('@tfpipe/core (pipeline users)', async () => {
    expect(await exportSurface(packageDirectory, '.', core)).toMatchInlineSnapshot(`
      [
        "Batch: type",
        "BuildExampleBatchesStream: type",
        "BuildExamplesOptions: type",
        "BuildExamplesStream: type",
        "BuildSequenceExamplesStream: type",
        "BytesFeature: type",
        "ChainFits: type",
        "CheckedSpec: type",
        "ComputedFeatureSpec: type",
        "DatasetStats: type",
        "DecodeOptions: type",
        "EmptyFeature: type",
        "Example: type",
        "ExampleJson: type",
        "ExampleSpec: type",
        "Feature: type",
        "FeatureEntry: type",
        "FeatureJson: type",
        "FeatureKind: type",
        "FeatureListStat: type",
        "FeatureOptions: type",
        "FeatureParseSpec: type",
        "FeatureSpec: type",
        "FeatureStat: type",
        "FeatureStatsCollector: function",
        "Features: type",
        "FeaturesJson: type",
        "FieldFeatureSpec: type",
        "Fits: type",
        "FloatFeature: type",
        "Int64Feature: type",
        "MissingPolicy: type",
        "OnError: type",
        "ParseExamplesOptions: type",
        "PayloadType: type",
        "Pipeline: type",
        "PipelineDefinition: type",
        "Position: type",
        "Progress: type",
        "PythonSpecOptions: type",
        "ReaderSpec: type",
        "RecordErrorOptions: type",
        "RunOptions: type",
        "RunSummary: type",
        "SampleRowsOptions: type",
        "SeededRandom: type",
        "SequenceExample: type",
        "SequenceExampleJson: type",
        "SequenceSpec: type",
        "SerializedRecord: type",
        "ShardSummary: type",
        "ShuffleBufferOptions: type",
        "SinkOf: type",
        "StageOf: type",
        "StageReport: type",
        "TFPIPE_ERROR_CODES: object",
        "TfpipeError: function",
        "TfpipeErrorCode: type",
        "TfpipeErrorCodes: type",
        "TfpipeErrorOptions: type",
        "ValueKind: type",
        "batch: function",
        "buildExamples: function",
        "buildSequenceExamples: function",
        "bytes: function",
        "bytesList: function",
        "daliSpec: function",
        "decodeExample: function",
        "decodeSequenceExample: function",
        "definePipeline: function",
        "emptyFeature: function",
        "encodeExample: function",
        "encodeSequenceExample: function",
        "errorCodes: function",
        "example: function",
        "exampleFromJson: function",
        "exampleToJson: function",
        "exampleToJsonText: function",
        "filterRows: function",
        "float: function",
        "floatList: function",
        "floatToJson: function",
        "int64: function",
        "int64List: function",
        "isErrorCode: function",
        "isSequenceExample: function",
        "jsonText: function",
        "mapRows: function",
        "parseExamples: function",
        "pipeline: function",
        "positionOf: function",
        "readerSpec: function",
        "registerErrorCodes: function",
        "reportOf: function",
        "run: function",
        "sampleRows: function",
        "seededRandom: function",
        "sequenceExample: function",
        "sequenceExampleFromJson: function",
        "sequenceExampleToJson: function",
        "sequenceExampleToJsonText: function",
        "serializeExamples: function",
        "shuffleBuffer: function",
        "take: function",
        "tensorflowSpec: function",
        "unbatch: function",
      ]
    `);
  });

  test('@tfpipe/core/plugin (plugin authors)', async () => {
    expect(await exportSurface(packageDirectory, './plugin', plugin)).toMatchInlineSnapshot(`
      [
        "CompiledGlob: type",
        "DeferredOutput: type",
        "DirectoryEntry: type",
        "DirectoryEntryBytes: type",
        "ExpandGlobOptions: type",
        "GlobSegment: type",
        "LineSplitter: function",
        "LineSplitterOptions: type",
        "ListingFileSystem: type",
        "MAX_GLOB_ALTERNATIVES: number",
        "MAX_GLOB_LENGTH: number",
        "OpenedSource: type",
        "OptionsFit: type",
        "OptionsJsonSchemaConverter: type",
        "PLUGIN_SPECIFICATION_VERSION: number",
        "POSITION: symbol",
        "PluginContext: type",
        "PluginDefinition: type",
        "PluginPlace: type",
        "Positioned: type",
        "PositionedRecord: function",
        "REPORT: symbol",
        "RecordErrorPolicy: function",
        "Reporter: type",
        "RequireTrue: type",
        "SideFile: type",
        "SinkFactory: type",
        "SinkPluginContext: type",
        "SinkPluginDefinition: type",
        "SourceFactory: type",
        "SourcePluginDefinition: type",
        "StageFactory: type",
        "StagedOptionsSchema: type",
        "StandardSchemaV1: type",
        "attachReport: function",
        "checkOptions: function",
        "checkPluginSpecification: function",
        "checkReplacedName: function",
        "compileGlob: function",
        "defineSinkPlugin: function",
        "defineSourcePlugin: function",
        "escapeFileName: function",
        "expandGlob: function",
        "formatOptionPath: function",
        "isGlob: function",
        "listDirectory: function",
        "matchesGlob: function",
        "optionsError: function",
        "optionsSchema: function",
        "usableName: function",
        "utf16Advice: function",
        "utf16Evidence: function",
        "valueAtPath: function",
        "withPosition: function",
      ]
    `);
  });

  test('@tfpipe/core/internal (tfpipe packages, no semver promise)', async () => {
    expect(await exportSurface(packageDirectory, './internal', internal)).toMatchInlineSnapshot(`
      [
        "ByteRange: function",
        "CellEncoder: type",
        "ENCODED: symbol",
        "EncodedExample: function",
        "ExampleSpecEntries: type",
        "FRAME_TRAILER_BYTES: number",
        "KNOWN_CRC_MIN_BYTES: number",
        "NumberCell: function",
        "RELEASE_HOOK: symbol",
        "RequestThread: function",
        "RequestThreadOptions: type",
        "SINK_RELEASES: symbol",
        "STAGE_PASSES_RELEASE: symbol",
        "ThreadWorker: type",
        "WireCursor: function",
        "compileCellEncoder: function",
        "copyBytes: function",
        "decimalFloat: function",
        "decimalInteger: function",
        "encodeInto: function",
        "encodedLength: function",
        "isFeatureValue: function",
        "knownCrc32c: function",
        "lendingSwitch: function",
        "markLending: function",
        "passRelease: function",
        "plainDecimal: function",
        "releaseRecord: function",
        "releasesThrough: function",
        "smallInteger: function",
        "withCrc32c: function",
        "withRelease: function",
      ]
    `);
  });

  test('@tfpipe/core/testing (conformance suites)', async () => {
    expect(await exportSurface(packageDirectory, './testing', testing)).toMatchInlineSnapshot(`
      [
        "BadFixture: type",
        "CollectingSink: type",
        "ConformanceCheck: type",
        "ConformanceError: function",
        "FromArrayOptions: type",
        "LendingRow: type",
        "OrderedFixture: type",
        "PlainFeature: type",
        "RandomTableOptions: type",
        "SinkSuiteOptions: type",
        "SourceSuiteOptions: type",
        "Table: type",
        "TableCell: type",
        "TableColumn: type",
        "TableKind: type",
        "TableValue: type",
        "activeFileResources: function",
        "collect: function",
        "expectedFeatures: function",
        "fromArray: function",
        "lendingSource: function",
        "protobufjsFeatures: function",
        "randomTable: function",
        "rejectionOf: function",
        "releasingSink: function",
        "sinkChecks: function",
        "slowSink: function",
        "sourceChecks: function",
        "testSink: function",
        "testSource: function",
      ]
    `);
  });

  test('@tfpipe/core/protobuf (protobufjs interop)', async () => {
    expect(await exportSurface(packageDirectory, './protobuf', protobuf)).toMatchInlineSnapshot(`
      [
        "TfProto: type",
        "tfProto: function",
      ]
    `);
  });

  test('no name is exported by two entries', () => {
    const seen = new Map<string, string>();
    for (const [entry, module] of Object.entries({ core, plugin, internal, protobuf, testing })) {
      for (const name of Object.keys(module)) {
        expect(seen.get(name), `${name} in ${entry}`).toBeUndefined();
        seen.set(name, entry);
      }
    }
  });
});

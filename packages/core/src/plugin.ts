/**
 * @module @tfpipe/core/plugin
 * For plugin authors: the contract a source or sink implements (`defineSourcePlugin`,
 * `defineSinkPlugin`, stamped with the plugin specification version a host checks), how records
 * carry positions and streams carry reports, the record-error policy, and the helpers every plugin
 * shares (globs and directory walks over a file system passed in, bounded line splitting, UTF-16
 * detection). The model, errors and stages come from `@tfpipe/core`; the conformance suites from
 * `@tfpipe/core/testing`.
 */

// Plugin definitions for config files (Standard Schema options)
export { defineSourcePlugin, defineSinkPlugin } from './contract/plugin-definition.js';
export type {
  StandardSchemaV1,
  PluginContext,
  SinkPluginContext,
  DeferredOutput,
  OpenedSource,
  SideFile,
  SourcePluginDefinition,
  SinkPluginDefinition,
  PluginDefinition,
} from './contract/plugin-definition.js';
export { PLUGIN_SPECIFICATION_VERSION, checkPluginSpecification } from './contract/plugin-specification.js';
export {
  checkOptions,
  formatOptionPath,
  optionsError,
  optionsSchema,
  valueAtPath,
} from './contract/check-options.js';
export type {
  OptionsFit,
  OptionsJsonSchemaConverter,
  RequireTrue,
  StagedOptionsSchema,
} from './contract/check-options.js';
export type { PluginPlace } from './contract/plugin-specification.js';

// Streams in code: factories, positions, reports, the record-error policy
export { POSITION, REPORT, withPosition, attachReport } from './contract/plugin-contract.js';
export type {
  SourceFactory,
  StageFactory,
  SinkFactory,
  Positioned,
  Reporter,
} from './contract/plugin-contract.js';
export { RecordErrorPolicy } from './contract/record-error-policy.js';
export { PositionedRecord } from './errors/positioned-record.js';

// Path expansion: the one glob matcher and walker of every plugin (the file system is passed in)
export {
  compileGlob,
  isGlob,
  matchesGlob,
  MAX_GLOB_ALTERNATIVES,
  MAX_GLOB_LENGTH,
} from './paths/glob-pattern.js';
export type { CompiledGlob, GlobSegment } from './paths/glob-pattern.js';
export { expandGlob } from './paths/expand-glob.js';
export type { ExpandGlobOptions } from './paths/expand-glob.js';
export { checkReplacedName, listDirectory, usableName } from './paths/list-directory.js';
export type { DirectoryEntry, DirectoryEntryBytes, ListingFileSystem } from './paths/list-directory.js';
export { escapeFileName } from './paths/file-name.js';

// Text inputs: bounded linear line splitting, UTF-16 detection
export { LineSplitter } from './text/line-splitter.js';
export type { LineSplitterOptions } from './text/line-splitter.js';
export { utf16Evidence, utf16Advice } from './text/utf16-evidence.js';

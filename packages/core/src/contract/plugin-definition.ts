/**
 * The plugin definition: how a plugin package describes itself to config files and the `tfpipe run`
 * command. A pipeline written in code passes streams by value and never needs this; a pipeline
 * written as a file names plugins by package (`"@tfpipe/source-csv"`) and gives their options as
 * JSON, so each plugin exports one value saying what its options are and how to open it.
 *
 * Core does not depend on a schema library: options are described by any schema that implements
 * the Standard Schema interface (https://standardschema.dev), which zod ≥ 3.24, valibot ≥ 1 and
 * ArkType implement. A change here is a breaking change.
 */
import type { Reporter } from './plugin-contract.js';
import { PLUGIN_SPECIFICATION_VERSION } from './plugin-specification.js';
import type { Example, PayloadType, SequenceExample } from '../model/example.js';

/**
 * The Standard Schema v1 interface, copied from the spec (it is meant to be copied, not imported).
 * A schema exposes `~standard.validate(value)`, which returns the typed value or a list of issues,
 * each with the path of the offending key.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace StandardSchemaV1 {
  /** The Standard Schema properties interface. */
  export interface Props<Input = unknown, Output = Input> {
    /** The version number of the standard. */
    readonly version: 1;
    /** The vendor name of the schema library. */
    readonly vendor: string;
    /** Validates unknown input values. */
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    /** Inferred types associated with the schema. */
    readonly types?: Types<Input, Output> | undefined;
  }
  /** The result interface of the validate function. */
  export type Result<Output> = SuccessResult<Output> | FailureResult;
  /** The result interface if validation succeeds. */
  export interface SuccessResult<Output> {
    /** The typed output value. */
    readonly value: Output;
    /** The non-existent issues. */
    readonly issues?: undefined;
  }
  /** The result interface if validation fails. */
  export interface FailureResult {
    /** The issues of failed validation. */
    readonly issues: ReadonlyArray<Issue>;
  }
  /** The issue interface of the failure output. */
  export interface Issue {
    /** The error message of the issue. */
    readonly message: string;
    /** The path of the issue, if any. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** The path segment interface of the issue. */
  export interface PathSegment {
    /** The key representing a path segment. */
    readonly key: PropertyKey;
  }
  /** The Standard Schema types interface. */
  export interface Types<Input = unknown, Output = Input> {
    /** The input type of the schema. */
    readonly input: Input;
    /** The output type of the schema. */
    readonly output: Output;
  }
  /** Infers the input type of a Standard Schema. */
  export type InferInput<Schema extends StandardSchemaV1> = NonNullable<
    Schema['~standard']['types']
  >['input'];
  /** Infers the output type of a Standard Schema. */
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<
    Schema['~standard']['types']
  >['output'];
}

/** What a plugin's `create` is given besides its options. */
export interface PluginContext {
  /**
   * Resolves a path written in the options: relative paths in a config file are relative to the
   * file's directory, in code to the working directory. Plugins call it on every path option.
   */
  readonly resolvePath: (path: string) => string;
  /** The record-error policy of the run, to pass to the source or sink. @default 'fail' */
  readonly onError: 'fail' | 'skip';
  /**
   * For a source: whether a stage after it reads the rows' fields (a spec, a transform, a split). A
   * `'rows'` source told `false` may emit Examples instead, built its own fastest way and in batches
   * (arrays), and says so with {@link OpenedSource.output}. Undefined means the fields may be read.
   */
  readonly fieldsRead?: boolean;
}

/**
 * A sink's finished output, still under temporary names. Whoever runs the pipeline puts every
 * sink's output in place together, once everything (side files included) succeeded.
 */
export interface DeferredOutput {
  /** Fails, renaming nothing, when a final name is taken by something that must not be replaced. */
  check(): Promise<void>;
  /** Renames the temporaries to their final names. */
  rename(): Promise<void>;
  /** Once every output is renamed: deletes the old output this one replaces; resolves with their paths. */
  removeReplaced(): Promise<string[]>;
  /** Deletes the temporaries (instead of {@link rename}). Never throws. */
  discard(): Promise<void>;
}

/** What a sink plugin's `create` is given besides its options. */
export interface SinkPluginContext extends PluginContext {
  /**
   * When given, the sink renames nothing as its stream closes: it hands its finished output over
   * here, and the caller renames it with the rest of the run (`tfpipe run` does). @default undefined
   */
  readonly deferOutput?: (output: DeferredOutput) => void;
  /**
   * The split this sink writes (`'train'`, `'validation'` …) when the pipeline splits: the sink
   * writes it as its own shard set (the TFRecord sink uses it as the shard prefix).
   */
  readonly split?: string;
  /** What the records are. */
  readonly payloadType: PayloadType;
  /**
   * The user asked to replace existing output (`tfpipe run --overwrite`); a sink option of the same
   * meaning, if the plugin has one, takes precedence. @default false
   */
  readonly overwrite?: boolean;
}

/**
 * A file a source contributes beside the output (a label map, vocabularies, a reader spec of its
 * own): written under a temporary name and put in place with the shards, only if the run succeeds.
 */
export interface SideFile {
  /** A plain file name in the output directory (no `/`, `\\`, `.` or `..`), e.g. `'labels.txt'`. */
  readonly name: string;
  /** The file's bytes; a string is written as UTF-8. */
  readonly contents: string | Uint8Array;
}

/** An opened source. */
export interface OpenedSource<Row> {
  /** The rows (or Examples, or serialized payloads, as `output` says). */
  readonly readable: ReadableStream<Row> & Partial<Reporter>;
  /** What the records become (Example unless the source reads SequenceExamples). @default 'Example' */
  readonly payloadType?: PayloadType;
  /**
   * Rows → Examples when the pipeline gives no `spec`: e.g. Parquet's footer-derived spec. Absent
   * for `output: 'rows'`, rows whose values are all `Feature`s are wrapped as Examples as they are.
   */
  readonly toExamples?: () => TransformStream<Row, Example | SequenceExample>;
  /** Reporting streams besides `readable` (an inner builder …), for sidecar files and summaries. */
  readonly reporters?: readonly object[];
  /**
   * What this opened source emits when it differs from the plugin's `output`: a `'rows'` source
   * given `fieldsRead: false` may emit `'examples'`. @default the plugin's `output`
   */
  readonly output?: 'rows' | 'examples' | 'payloads';
  /**
   * The side files this source contributes, asked once every record is written and before the output
   * is put in place (so they can say what the run saw: the classes met, the vocabularies); a runner
   * with an output directory writes them there, in the same commit as the shards. Not asked when the
   * sink writes one named file. @default no side files
   */
  readonly sideFiles?: () => readonly SideFile[] | Promise<readonly SideFile[]>;
}

/**
 * A source plugin. Export it as `plugin` (or `sourcePlugin` from a package that is also a sink).
 *
 * @typeParam Options - the checked options, the output of the `options` schema.
 * @typeParam Row - what the source produces.
 */
export interface SourcePluginDefinition<Options = unknown, Row = unknown> {
  /** `'source'`. */
  readonly kind: 'source';
  /**
   * The version of this plugin contract the plugin was written for; a host refuses a newer one
   * (see `checkPluginSpecification`). `defineSourcePlugin` / `defineSinkPlugin` fill it in.
   * @default PLUGIN_SPECIFICATION_VERSION (1)
   */
  readonly specificationVersion?: number;
  /** The package name config files use, e.g. `'@tfpipe/source-csv'`. */
  readonly name: string;
  /** One line for `tfpipe run --dry-run` and error messages. */
  readonly description: string;
  /**
   * Its options as a Standard Schema. Reject unknown keys (zod: `z.strictObject`; valibot:
   * `v.strictObject`) so a typo in a config file is an error, not a silently ignored option.
   */
  readonly options: StandardSchemaV1<unknown, Options>;
  /**
   * What each chunk is: `'rows'` (objects whose values `buildExamples` reads: plain values or
   * `Feature` objects), `'examples'` (Example / SequenceExample objects) or `'payloads'` (serialized
   * records as `Uint8Array`, copied to the sink without re-encoding unless a stage needs fields).
   */
  readonly output: 'rows' | 'examples' | 'payloads';
  /** Opens the source with checked options. May read a footer or infer a schema first. */
  create(options: Options, context: PluginContext): OpenedSource<Row> | Promise<OpenedSource<Row>>;
}

/**
 * A sink plugin. Export it as `plugin` (or `sinkPlugin` from a package that is also a source).
 *
 * @typeParam Options - the checked options, the output of the `options` schema.
 */
export interface SinkPluginDefinition<Options = unknown> {
  /** `'sink'`. */
  readonly kind: 'sink';
  /**
   * The version of this plugin contract the plugin was written for; a host refuses a newer one
   * (see `checkPluginSpecification`). `defineSourcePlugin` / `defineSinkPlugin` fill it in.
   * @default PLUGIN_SPECIFICATION_VERSION (1)
   */
  readonly specificationVersion?: number;
  /** The package name config files use, e.g. `'@tfpipe/sink-tfrecord'`. */
  readonly name: string;
  /** One line for `tfpipe run --dry-run` and error messages. */
  readonly description: string;
  /** Its options as a Standard Schema that rejects unknown keys. */
  readonly options: StandardSchemaV1<unknown, Options>;
  /**
   * The directory of shards the sink writes, for the pre-run check that it holds no old shards
   * and for the reader spec files written beside the output; `undefined` when the sink writes one
   * named file (it then refuses an existing file itself).
   */
  outputDirectory(options: Options, context: PluginContext): string | undefined;
  /** Opens the sink (once per split when the pipeline splits). */
  create(
    options: Options,
    context: SinkPluginContext,
  ): WritableStream<Example | SequenceExample | Uint8Array> & Partial<Reporter>;
}

/** Any plugin definition (methods compare their parameters bivariantly, so every definition fits). */
export type PluginDefinition = SourcePluginDefinition<unknown, unknown> | SinkPluginDefinition<unknown>;

/**
 * Type-checks a definition in place (options typed from the schema) and stamps it with the plugin
 * specification version it was written for: `export const plugin = defineSourcePlugin({ ... })`.
 * A `specificationVersion` given in the definition is kept.
 */
export function defineSourcePlugin<Options, Row>(
  definition: SourcePluginDefinition<Options, Row>,
): SourcePluginDefinition<Options, Row> & { readonly specificationVersion: number } {
  return {
    ...definition,
    specificationVersion: definition.specificationVersion ?? PLUGIN_SPECIFICATION_VERSION,
  };
}

/** See {@link defineSourcePlugin}. */
export function defineSinkPlugin<Options>(
  definition: SinkPluginDefinition<Options>,
): SinkPluginDefinition<Options> & { readonly specificationVersion: number } {
  return {
    ...definition,
    specificationVersion: definition.specificationVersion ?? PLUGIN_SPECIFICATION_VERSION,
  };
}

import type { PipelineConfig } from '../config/pipeline-config.js';

/** The plan format this tfpipe writes and reads; a plan of another version is refused. */
export const PLAN_VERSION = 1;
/** The `format` marker of a plan file. */
export const PLAN_FORMAT = 'tfpipe-plan';

/** An input file as it was when planned: work refuses it once its size or mtime differ. */
export interface PlanInput {
  /** Absolute path. */
  readonly path: string;
  /** Bytes. */
  readonly size: number;
  /** Modification time, in milliseconds since the epoch. */
  readonly mtimeMs: number;
}

/**
 * The smallest piece of input a shard reads: a whole file, a byte range of a CSV file (cut at a
 * record start; its header bytes are read first), one Parquet row group, or a run of images in the
 * image input's order.
 */
export type PlanUnit =
  | { readonly input: number; readonly kind: 'file' }
  | {
      readonly input: number;
      readonly kind: 'bytes';
      /** First byte of the range (a record start). */
      readonly start: number;
      /** Byte after the range. */
      readonly end: number;
      /** The header record's bytes are `[0, headerEnd)`; 0 without a header. */
      readonly headerEnd: number;
      /** The 1-based line of `start` in the file (error positions count in the whole file). */
      readonly line: number;
      /** The 0-based data row of the first record at `start`. */
      readonly row: number;
    }
  | { readonly input: number; readonly kind: 'rowGroup'; readonly rowGroup: number }
  | {
      /** The list or annotation file in {@link ScalePlan.inputs}; -1 for a folder tree (checked by its listing's digest). */
      readonly input: number;
      readonly kind: 'images';
      /** First image, 0-based in the input's order. */
      readonly start: number;
      /** Image after the run. */
      readonly end: number;
    };

/** One work index: the units it reads, in order. Its outputs are `PREFIX-<index>-of-<shards>SUFFIX`. */
export interface PlanShard {
  readonly index: number;
  /** Indexes into {@link ScalePlan.units}. */
  readonly units: readonly number[];
}

/**
 * A plan: everything a worker needs to write its shard without talking to any other, so that each
 * shard is a pure function of the plan and its index. Written by `planPipeline`, read by
 * `workShard`, `finalizePlan` and `planStatus`.
 */
export interface ScalePlan {
  readonly format: typeof PLAN_FORMAT;
  readonly planVersion: typeof PLAN_VERSION;
  /** The pipeline as checked at planning (JSON only: no functions), its paths made absolute. */
  readonly pipeline: {
    readonly config: PipelineConfig;
    /** What the config's relative paths resolve against. */
    readonly baseDirectory: string;
  };
  /** The output directory, shared by every worker. */
  readonly directory: string;
  /** Work indexes, and output shards per split. */
  readonly shardCount: number;
  /** Source options every unit adds (a CSV's delimiter and full schema, fixed once for all shards). */
  readonly sourceOptions: Readonly<Record<string, unknown>>;
  readonly inputs: readonly PlanInput[];
  readonly units: readonly PlanUnit[];
  readonly shards: readonly PlanShard[];
  /** SHA-256 of the plan without this field: a plan edited by hand is refused. */
  readonly checksum: string;
}

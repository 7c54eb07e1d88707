import type { PixelShape } from './raw-pixels.js';
import type { DetectionBox, DetectionBoxes } from './detection-boxes.js';
import type { IndexCheck } from './index-check.js';
import type { Selection } from './row-selection.js';
import type { DatasetProfile } from './stats/dataset-profile.js';

/** Where the worker reads a file from: a picked or dropped `File`, or a URL `tfpipe view` serves. */
export type FileSource =
  | {
      readonly kind: 'file';
      readonly file: File;
      /** Its path in a dropped folder (`shards/a.tfrecord`); a picked file's is its `webkitRelativePath`. */
      readonly path?: string;
    }
  | { readonly kind: 'url'; readonly url: string; readonly name: string; readonly size: number };

/** A record that could not be read: what went wrong and where, as `tfpipe verify` reports it. */
export interface Problem {
  /** The TfpipeError code: `RECORD_CRC`, `RECORD_TRUNCATED`, `RECORD_TOO_LARGE`, `DECOMPRESS`, … */
  readonly code: string;
  /** The error message. */
  readonly message: string;
  /** 0-based index of the record in its file, when known. */
  readonly recordIndex: number | undefined;
  /** Offset of the damage in the (decompressed) file, in bytes, when known. */
  readonly byteOffset: number | undefined;
}

/** A byte range the reader gave up on (`LostRegion` of `@tfpipe/sink-tfrecord/web`, cloneable). */
export interface LostRange {
  /** Offset of the first lost byte. */
  readonly start: number;
  /** Offset just past the last lost byte. */
  readonly end: number;
  /** Why the range was lost. */
  readonly reason: string;
}

/** One row of the record table. */
export interface RecordRow {
  /** 0-based position among the readable records (the table's row number). */
  readonly row: number;
  /** 0-based index of the record in its file (a lost region counts as one record). */
  readonly recordIndex: number;
  /** Offset of the record's first framing byte in the (decompressed) file, in bytes. */
  readonly byteOffset: number;
  /** The payload's length, in bytes. */
  readonly length: number;
  /** A short text of the record's features, or why it does not decode. */
  readonly summary: string;
}

/** One feature as the record view shows it: values already formatted by the worker. */
export interface FeatureView {
  readonly key: string;
  /** `bytes`, `float`, `int64` or `none`. */
  readonly kind: string;
  /** How many values it has. */
  readonly count: number;
  /** The first values as text (exact int64, floats as protobuf prints them, bytes as text or hex). */
  readonly values: readonly string[];
}

/** A `bytes` value holding an image the browser can decode, or raw pixels of a known shape. */
export interface ImageBytes {
  /** The feature it is a value of. */
  readonly key: string;
  /** Its position in the feature's list. */
  readonly index: number;
  /** Its MIME type, from its magic bytes; `raw` for raw pixels. */
  readonly type: string;
  readonly bytes: Uint8Array;
  /** The shape of raw pixels (`type` is `raw`), from the record's height / width / channels features. */
  readonly pixels?: PixelShape;
}

/** A decoded record for the record view, formatted in the worker so that the page needs no decoder. */
export interface RecordDetail extends RecordRow {
  /** What the payload decodes as; `undefined` when it is neither. */
  readonly payloadType: 'Example' | 'SequenceExample' | undefined;
  /** Why the payload does not decode, when it does not. */
  readonly decodeError: string | undefined;
  /** The features (the context of a SequenceExample). */
  readonly features: readonly FeatureView[];
  /** A SequenceExample's feature lists, one view per step. */
  readonly featureLists: readonly { readonly key: string; readonly steps: readonly FeatureView[] }[];
  /** The images among the bytes values. */
  readonly images: readonly ImageBytes[];
  /** The object boxes, drawn on the first image of `image/encoded` or `image` (else the first image). */
  readonly boxes: DetectionBoxes;
}

/** One record of the image grid: its first image (the one boxes belong to) and its boxes. */
export interface Thumbnail {
  /** The table row (position in the current selection). */
  readonly row: number;
  readonly recordIndex: number;
  readonly image: ImageBytes | undefined;
  readonly boxes: readonly DetectionBox[];
}

/** A pass over the records the page waits for (statistics, a filter, an export). */
export type PassTask = 'profile' | 'select' | 'export';

/** Messages from the page to the worker. */
export type WorkerRequest =
  | {
      readonly type: 'open';
      readonly source: FileSource;
      /** The shard's DALI `.idx` file, to use and check. */
      readonly index?: FileSource | undefined;
    }
  | { readonly type: 'profile'; readonly id: number }
  | { readonly type: 'select'; readonly id: number; readonly selection: Selection }
  | { readonly type: 'export'; readonly id: number }
  | { readonly type: 'thumbnails'; readonly id: number; readonly start: number; readonly count: number }
  | { readonly type: 'rows'; readonly id: number; readonly start: number; readonly count: number }
  | { readonly type: 'record'; readonly id: number; readonly row: number }
  | { readonly type: 'rowOf'; readonly id: number; readonly recordIndex: number };

/** Messages from the worker to the page. */
export type WorkerResponse =
  | { readonly type: 'compression'; readonly compression: string }
  | {
      readonly type: 'progress';
      /** Bytes of the file as stored read so far. */
      readonly bytesRead: number;
      /** The file's size as stored, in bytes. */
      readonly totalBytes: number;
      /** Readable records so far. */
      readonly records: number;
      /** Problems found so far (the first ones, bounded). */
      readonly problems: readonly Problem[];
    }
  | {
      readonly type: 'done';
      readonly records: number;
      readonly problems: readonly Problem[];
      readonly problemCount: number;
      readonly lost: readonly LostRange[];
      /** Milliseconds from open to the end of the pass. */
      readonly elapsed: number;
    }
  | { readonly type: 'failed'; readonly message: string }
  | {
      readonly type: 'pass';
      readonly task: PassTask;
      /** Records visited so far. */
      readonly done: number;
      /** Records the pass visits. */
      readonly total: number;
    }
  | {
      readonly type: 'index';
      /** The `.idx` file's name. */
      readonly name: string;
      /** Records it lists (known before the reading pass ends), or -1 when it could not be read. */
      readonly entries: number;
      /** Why it could not be read. */
      readonly error: string | undefined;
      /** The check against the records read, once the reading pass is done. */
      readonly check: IndexCheck | undefined;
    }
  | {
      /** The request `id` threw: the page's pending call rejects with `message`. */
      readonly type: 'error';
      readonly id: number;
      readonly message: string;
    }
  | { readonly type: 'rows'; readonly id: number; readonly rows: readonly RecordRow[] }
  | { readonly type: 'record'; readonly id: number; readonly record: RecordDetail | undefined }
  | { readonly type: 'rowOf'; readonly id: number; readonly row: number }
  | { readonly type: 'profile'; readonly id: number; readonly profile: DatasetProfile }
  | {
      readonly type: 'selected';
      readonly id: number;
      /** Rows the selection keeps (the table's new length), or -1 with `error`. */
      readonly count: number;
      /** Readable records it chose among: all of the file's, or those read so far (`partial`). */
      readonly of: number;
      /** Whether the reading pass was still going: the selection covers the records read so far. */
      readonly partial: boolean;
      readonly error: string | undefined;
    }
  | {
      readonly type: 'exported';
      readonly id: number;
      readonly blob: Blob;
      readonly records: number;
      /** Whether the reading pass was still going: the records read so far were exported. */
      readonly partial: boolean;
    }
  | { readonly type: 'thumbnails'; readonly id: number; readonly thumbnails: readonly Thumbnail[] };

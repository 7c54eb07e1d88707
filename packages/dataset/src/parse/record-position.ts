import { positionOf, TfpipeError } from '@tfpipe/core';
import type { Position, SerializedRecord } from '@tfpipe/core';

/** Where a batch of bare byte arrays came from, for error positions. */
export interface BatchOrigin {
  /** The file the records were read from. */
  readonly file?: string;
  /**
   * The index in its file of the batch's first record; record `i` of the batch is `firstRecordIndex + i`.
   * @default 0
   */
  readonly firstRecordIndex?: number;
}

/** The position of record `batchIndex` of a batch: its own, else what `origin` says. */
export function recordPosition(record: SerializedRecord, batchIndex: number, origin: BatchOrigin): Position {
  const attached = positionOf(record);
  if (attached !== undefined) return attached;
  if (record instanceof Uint8Array) {
    const position: { file?: string; recordIndex: number } = {
      recordIndex: (origin.firstRecordIndex ?? 0) + batchIndex,
    };
    if (origin.file !== undefined) position.file = origin.file;
    return position;
  }
  const position: { -readonly [K in keyof Position]: Position[K] } = {};
  if (typeof record.file === 'string') position.file = record.file;
  else if (origin.file !== undefined) position.file = origin.file;
  position.recordIndex =
    typeof record.recordIndex === 'number' ? record.recordIndex : (origin.firstRecordIndex ?? 0) + batchIndex;
  if (typeof record.byteOffset === 'number') position.byteOffset = record.byteOffset;
  return position;
}

/** Puts the record's position (and the feature being read) on an error; an offset inside the payload moves into the reason. */
export function locateError(
  error: unknown,
  position: Position,
  field: string | undefined,
  stage: string,
): TfpipeError {
  if (!TfpipeError.is(error)) {
    return new TfpipeError('INTERNAL', `${stage} failed`, {
      stage,
      cause: error,
      position,
    });
  }
  const inPayload = error.code === 'PROTO_DECODE' ? error.position.byteOffset : undefined;
  const reason =
    inPayload === undefined
      ? error.reason
      : `${error.reason ?? ''} (byte ${inPayload} of the record's payload)`;
  const merged: Position = { ...error.position, ...position };
  if (inPayload !== undefined && position.byteOffset === undefined)
    delete (merged as { byteOffset?: number }).byteOffset;
  return new TfpipeError(error.code, error.detail, {
    stage,
    position: field === undefined || merged.field !== undefined ? merged : { ...merged, field },
    cause: error,
    ...(reason === undefined ? {} : { reason }),
  });
}

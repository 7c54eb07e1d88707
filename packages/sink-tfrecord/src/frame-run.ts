/**
 * Consecutive frames still in the buffer their encoder wrote them into (a chunk of `buildExamples`
 * with room for each frame): from `start` to `end` of `buffer`. Frames that follow one another in
 * that buffer extend the run, so that they are written, or copied, in one piece. Internal.
 */
export class FrameRun {
  /** The buffer the frames are in; undefined while the run is empty. */
  buffer: Uint8Array | undefined;
  /** Offset in `buffer` of the first frame's first byte. */
  start = 0;
  /** Offset in `buffer` just after the last frame. */
  end = 0;
  /** Where in the write buffer the run goes when it is copied there (see `FrameBuffers`). */
  target = 0;

  /** Adds the frame from `start` to `end` of `buffer`; false (nothing added) when it does not follow the run. */
  extend(buffer: Uint8Array, start: number, end: number): boolean {
    if (this.buffer !== buffer || this.end !== start) return false;
    this.end = end;
    return true;
  }

  /** Starts a new run with the frame from `start` to `end` of `buffer`, going to `target` when copied. */
  begin(buffer: Uint8Array, start: number, end: number, target = 0): void {
    this.buffer = buffer;
    this.start = start;
    this.end = end;
    this.target = target;
  }

  /** The run's bytes (a view, not a copy); the run is empty afterwards. */
  take(): Uint8Array {
    const bytes = this.buffer!.subarray(this.start, this.end);
    this.buffer = undefined;
    this.start = 0;
    this.end = 0;
    return bytes;
  }
}

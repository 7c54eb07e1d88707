import { TfpipeError } from '../errors/tfpipe-error.js';

/** Options of {@link LineSplitter}. */
export interface LineSplitterOptions {
  /** Longest line accepted, in bytes (without its `\n` or `\r\n`). */
  readonly maxLineBytes: number;
  /** The option or flag a user raises to accept longer lines, named in the error. */
  readonly limitName: string;
  /** The input's name, for the error's position. */
  readonly file?: string;
  /** The stage reading, for the error. */
  readonly stage?: string;
}

/**
 * Splits a byte stream into lines at `\n` (dropping a `\r` before it) in time linear in the input,
 * however long a line is, holding at most `maxLineBytes` of an unfinished line: a longer line is a
 * fatal `RECORD_TOO_LARGE` error (its 1-based `line`, and the `byteOffset` where it starts) as soon as it
 * outgrows the limit, not once it ends. Splitting bytes before decoding is safe in UTF-8, where the
 * byte 0x0A only ever means `\n`.
 */
export class LineSplitter {
  readonly #maxLineBytes: number;
  readonly #limitName: string;
  readonly #file: string | undefined;
  readonly #stage: string | undefined;
  /** Copies of the pieces of the unfinished line (the caller may reuse its chunk buffers). */
  #parts: Uint8Array[] = [];
  #partBytes = 0;
  /** Bytes pushed so far. */
  #offset = 0;
  /** Where the unfinished line starts, in bytes from the start of the input. */
  #lineStart = 0;
  /** Complete lines handed out so far. */
  lines = 0;

  constructor(options: LineSplitterOptions) {
    this.#maxLineBytes = options.maxLineBytes;
    this.#limitName = options.limitName;
    this.#file = options.file;
    this.#stage = options.stage;
  }

  /**
   * The complete lines `chunk` ends (with what earlier chunks left unfinished), as views of `chunk`
   * or joined copies: read them before `chunk`'s memory is reused. @throws TfpipeError RECORD_TOO_LARGE
   */
  push(chunk: Uint8Array): Uint8Array[] {
    const lines: Uint8Array[] = [];
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      lines.push(this.#finish(chunk.subarray(start, newline), lines.length));
      start = newline + 1;
      this.#lineStart = this.#offset + start;
    }
    const rest = chunk.length - start;
    // `+ 1`: a `\r` that turns out to precede the `\n` is not part of the line.
    if (this.#partBytes + rest > this.#maxLineBytes + 1) throw this.#tooLarge(lines.length);
    if (rest > 0) {
      this.#parts.push(chunk.slice(start));
      this.#partBytes += rest;
    }
    this.#offset += chunk.length;
    this.lines += lines.length;
    return lines;
  }

  /** The last line when the input does not end with `\n`; undefined when it does. */
  end(): Uint8Array | undefined {
    if (this.#partBytes === 0) return undefined;
    const line = this.#finish(new Uint8Array(0), 0);
    this.lines++;
    return line;
  }

  /** `piece` after the held parts, without a trailing `\r`. */
  #finish(piece: Uint8Array, handedOut: number): Uint8Array {
    const length = this.#partBytes + piece.length;
    if (length > this.#maxLineBytes + 1) throw this.#tooLarge(handedOut);
    let line = piece;
    if (this.#parts.length > 0) {
      line = new Uint8Array(length);
      let at = 0;
      for (const part of this.#parts) {
        line.set(part, at);
        at += part.length;
      }
      line.set(piece, at);
      this.#parts = [];
      this.#partBytes = 0;
    }
    if (line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
    if (line.length > this.#maxLineBytes) throw this.#tooLarge(handedOut);
    return line;
  }

  #tooLarge(handedOut: number): TfpipeError {
    const line = this.lines + handedOut + 1;
    // Fatal: the rest of the line would have to be read to find the next one.
    return new TfpipeError('RECORD_TOO_LARGE', 'line too long', {
      fatal: true,
      ...(this.#stage === undefined ? {} : { stage: this.#stage }),
      position: {
        ...(this.#file === undefined ? {} : { file: this.#file }),
        line,
        byteOffset: this.#lineStart,
      },
      reason: `over ${this.#maxLineBytes} bytes (${this.#limitName})`,
    });
  }
}

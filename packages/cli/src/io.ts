/** Where a command writes and what it may ask of the terminal. Tests pass string buffers. */
export interface CliIo {
  /** Standard output (data: records, JSON lines, tables). */
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  /** Standard error (progress, warnings, the one-line error). */
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Directory relative paths resolve against. */
  readonly cwd: string;
}

/** The exit code when the reader of our output went away (`tfpipe inspect … | head -1`): 128 + SIGPIPE, as a shell shows it. */
export const OUTPUT_CLOSED_EXIT = 141;

const OUTPUT_CLOSED = Symbol.for('tfpipe.cli.outputClosed');

/** Thrown by {@link writeLine} once its stream is closed or broken (EPIPE): the command stops quietly. */
export class OutputClosedError extends Error {
  readonly [OUTPUT_CLOSED] = true;
  constructor(cause: unknown) {
    super('output closed', { cause });
  }

  /** True for an {@link OutputClosedError} or a raw `EPIPE` from a write. */
  static is(error: unknown): boolean {
    return (
      (typeof error === 'object' && error !== null && OUTPUT_CLOSED in error) ||
      (error as { code?: unknown } | null)?.code === 'EPIPE'
    );
  }
}

type Observed = NodeJS.WritableStream & { errored?: unknown; destroyed?: boolean };

/**
 * Writes a line to a stream, waiting for drain so large outputs keep constant memory. Once the stream
 * is broken (its reader closed the pipe: EPIPE) or destroyed it throws {@link OutputClosedError} rather
 * than waiting forever for a drain that cannot come; `main` turns that into a quiet exit.
 */
export async function writeLine(stream: NodeJS.WritableStream, line: string): Promise<void> {
  const observed = stream as Observed;
  if (observed.errored != null || observed.destroyed === true) {
    throw new OutputClosedError(observed.errored);
  }
  if (stream.write(`${line}\n`)) return;
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: unknown): void => {
      stream.off('drain', onDrain);
      stream.off('error', onError);
      stream.off('close', onClose);
      if (error === undefined) resolve();
      else reject(new OutputClosedError(error));
    };
    const onDrain = (): void => settle();
    const onError = (error: unknown): void => settle(error);
    const onClose = (): void => settle(observed.errored ?? new Error('closed'));
    stream.on('drain', onDrain);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}

/** Where a command writes and what it may ask of the terminal. Tests pass string buffers. */
export interface CliIo {
  /** Standard output (data: records, JSON lines, tables). */
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  /** Standard error (progress, warnings, the one-line error). */
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Directory relative paths resolve against. */
  readonly cwd: string;
}

/** Writes a line to a stream, waiting for drain so large outputs keep constant memory. */
export async function writeLine(stream: NodeJS.WritableStream, line: string): Promise<void> {
  if (!stream.write(`${line}\n`)) {
    await new Promise<void>((resolve) => stream.once('drain', resolve));
  }
}

import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { TFRECORD_CORPUS } from '../../../../test-support/corpus.js';
import { main } from '../main.js';

/** The built executable, run as a user runs it. */
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/** The vendored third-party TFRecord corpus (test-support/corpus, see its NOTICE.md). */
export const CORPUS = TFRECORD_CORPUS;

/** What one `tfpipe …` run ended with. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A stream that keeps what is written to it, as text (a pipe's view: not a TTY). */
class TextBuffer extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    done();
  }
}

/**
 * Runs `tfpipe ...args` in this process through `main(argv, io)`, with string buffers for stdout and
 * stderr and `cwd` (default: the process's) for relative paths. What most tests use: the command's
 * behaviour without a Node start-up per call.
 */
export async function tfpipe(args: readonly string[], options: { cwd?: string } = {}): Promise<CliResult> {
  const stdout = new TextBuffer();
  const stderr = new TextBuffer();
  const code = await main(args, { stdout, stderr, cwd: options.cwd ?? process.cwd() });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/**
 * Runs the built `tfpipe ...args` as a user runs it, in its own process, and resolves with its exit
 * code and output (never rejects on a non-zero exit). For what only a process shows: exit codes as a
 * shell sees them, closed pipes, signals, the executable itself.
 */
export function tfpipeProcess(args: readonly string[], options: { cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: options.cwd, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

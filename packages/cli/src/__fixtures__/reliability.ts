import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { BIN } from './run-cli.js';

/** A small seeded PRNG (mulberry32): reliability tests pick kill points and faults reproducibly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Writes a CSV of `rows` rows `id,label,score,text`, the id being the row number. */
export async function writeRowsCsv(path: string, rows: number): Promise<void> {
  const lines = ['id,label,score,text'];
  for (let row = 0; row < rows; row++) lines.push(`${row},${row % 10},${(row % 997) / 997},word${row} text`);
  await writeFile(path, lines.join('\n') + '\n');
}

/** A running `tfpipe …` child and its collected output. */
export interface CliChild {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts `node dist/bin.js ...args`, optionally under `bash -c 'ulimit -f BLOCKS; exec …'`. */
export function startCli(args: readonly string[], options: { fileSizeBlocks?: number } = {}): CliChild {
  const command = [process.execPath, BIN, ...args];
  const child =
    options.fileSizeBlocks === undefined
      ? spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('bash', ['-c', `ulimit -f ${options.fileSizeBlocks}; exec "$@"`, 'bash', ...command], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  child.stdout?.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, exited };
}

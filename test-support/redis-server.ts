// Test helper: Debian's redis-server on a random loopback port, with an append-only file so that a
// restart keeps the queue (as a user's Redis with persistence does).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why Redis tests cannot run here, or undefined when `redis-server` is installed. */
export function redisMissing(): string | undefined {
  const found = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (found.status === 0) return undefined;
  return 'redis-server is not installed (Debian package redis-server: apt-get install redis-server)';
}

/** A running redis-server: its URL, and restart / stop. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Kills it with SIGKILL and starts it again on the same port and data, with extra `args` (e.g. `--requirepass`). */
  restart(args?: readonly string[]): Promise<void>;
  stop(): Promise<void>;
}

/** Starts redis-server on a free random port in a fresh folder. */
export async function startRedis(): Promise<RedisServer> {
  const directory = await mkdtemp(join(tmpdir(), 'tfpipe-redis-'));
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 40_000);
    let child = await launch(directory, port).catch(() => undefined);
    if (child === undefined) continue;
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      async restart(args: readonly string[] = []) {
        await kill(child!);
        child = await launch(directory, port, args);
      },
      async stop() {
        if (child !== undefined) await kill(child);
        child = undefined;
        await rm(directory, { recursive: true, force: true });
      },
    };
  }
  throw new Error('no free port for redis-server after 20 tries');
}

function launch(directory: string, port: number, extra: readonly string[] = []): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', directory, '--save', ''];
  const child = spawn('redis-server', [...args, '--appendonly', 'yes', '--appendfsync', 'always', ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout.off('data', onData);
        child.stdout.resume();
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', () => reject(new Error(`redis-server exited: ${output.slice(-300)}`)));
  });
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

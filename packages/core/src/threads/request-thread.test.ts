import { afterEach, describe, expect, test, vi } from 'vitest';
import { RequestThread, type ThreadWorker } from './request-thread.js';

type Listener = (value: never) => void;

/** A stand-in worker: records what is posted, and lets the test answer, fail or exit it. */
class FakeWorker implements ThreadWorker {
  readonly posted: unknown[] = [];
  readonly listeners = new Map<string, Listener>();
  referenced = true;
  terminated = false;
  postMessage(message: unknown): void {
    this.posted.push(message);
  }
  on(event: string, listener: Listener): this {
    this.listeners.set(event, listener);
    return this;
  }
  ref(): void {
    this.referenced = true;
  }
  unref(): void {
    this.referenced = false;
  }
  terminate(): Promise<number> {
    this.terminated = true;
    return Promise.resolve(1);
  }
  emit(event: string, value: unknown): void {
    (this.listeners.get(event) as ((value: unknown) => void) | undefined)?.(value);
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('RequestThread', () => {
  test('settles each request with the reply of its id, whatever the order; other messages go to onMessage', async () => {
    const worker = new FakeWorker();
    const other: unknown[] = [];
    const thread = new RequestThread({ start: () => worker, onMessage: (message) => other.push(message) });
    expect(worker.referenced).toBe(false);
    const first = thread.request<{ id: number; value: string }>({ ask: 'a' });
    const second = thread.request<{ id: number; value: string }>({ ask: 'b' });
    expect(worker.posted).toEqual([
      { id: 0, ask: 'a' },
      { id: 1, ask: 'b' },
    ]);
    // Busy: it holds the process open until the last answer.
    expect(worker.referenced).toBe(true);
    expect(thread.load).toBe(2);
    worker.emit('message', { ready: true });
    worker.emit('message', { id: 1, value: 'B' });
    worker.emit('message', { id: 0, value: 'A' });
    await expect(first).resolves.toEqual({ id: 0, value: 'A' });
    await expect(second).resolves.toEqual({ id: 1, value: 'B' });
    expect(other).toEqual([{ ready: true }]);
    expect(worker.referenced).toBe(false);
  });

  test('an exit rejects what waits with exitMessage, tells onGone once, and refuses later requests', async () => {
    const worker = new FakeWorker();
    const gone: unknown[] = [];
    const thread = new RequestThread({
      start: () => worker,
      exitMessage: (code) => `reader exited (code ${code})`,
      onGone: (error) => gone.push(error?.message),
    });
    const waiting = thread.request({});
    worker.emit('exit', 3);
    worker.emit('error', new Error('late'));
    await expect(waiting).rejects.toThrow('reader exited (code 3)');
    expect(gone).toEqual(['reader exited (code 3)']);
    expect(thread.running).toBe(false);
    await expect(thread.request({})).rejects.toThrow('not running');
  });

  test('exits idleExitMs after its last answer, not while a request waits; stop rejects with its error', async () => {
    vi.useFakeTimers();
    const worker = new FakeWorker();
    const gone: unknown[] = [];
    const thread = new RequestThread({
      start: () => worker,
      idleExitMs: 1000,
      onGone: (error) => gone.push(error),
    });
    const first = thread.request({});
    vi.advanceTimersByTime(5000);
    expect(worker.terminated).toBe(false);
    worker.emit('message', { id: 0 });
    await first;
    vi.advanceTimersByTime(600);
    thread.touch();
    vi.advanceTimersByTime(600);
    expect(worker.terminated).toBe(false);
    vi.advanceTimersByTime(500);
    expect(worker.terminated).toBe(true);
    expect(gone).toEqual([undefined]);

    const other = new RequestThread({ start: () => new FakeWorker() });
    const pending = other.request({});
    await other.stop(new Error('stopped for the test'));
    await expect(pending).rejects.toThrow('stopped for the test');
  });
});

/**
 * The part of a Node.js `Worker` (node:worker_threads) that {@link RequestThread} uses. Structural,
 * so that core imports no `node:*` module: the plugin that starts the thread passes the Worker.
 */
export interface ThreadWorker {
  postMessage(message: unknown, transfer?: readonly unknown[]): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  ref(): void;
  unref(): void;
  terminate(): Promise<unknown>;
}

/** Options of a {@link RequestThread}. */
export interface RequestThreadOptions {
  /**
   * Starts the worker, e.g. `() => new Worker(source, { eval: true, execArgv: [], name })`: the
   * thread's source as a string works the same from a built package, from TypeScript sources under
   * a test runner and from a bundle, where a separate worker file would need a path.
   */
  readonly start: () => ThreadWorker;
  /** How long the thread stays alive without a request before it exits, milliseconds. @default 5000 */
  readonly idleExitMs?: number;
  /** The message of the error that an exit of the thread rejects requests with. @default `the thread exited (code N)` */
  readonly exitMessage?: (code: number) => string;
  /** A message without a numeric `id` (not a reply), e.g. a readiness check. @default ignored */
  readonly onMessage?: (message: unknown) => void;
  /**
   * Called once when the thread is gone: it failed or exited (`error`), it was idle too long or it
   * was stopped (`undefined`). Requests not answered by then reject. @default nothing
   */
  readonly onGone?: (error: Error | undefined) => void;
}

interface Waiting {
  readonly resolve: (reply: { readonly id: number }) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * One worker thread answering numbered requests: each message posted carries an `id`, and the
 * thread's reply with the same `id` settles it. The thread keeps the process alive only while a
 * request waits, and exits `idleExitMs` after its last answer (or {@link touch}) without a new
 * request; an error or exit rejects what waits.
 * Internal: how tfpipe's plugins run their reader and CRC threads.
 * @throws whatever `options.start` throws (threads cannot start, e.g. under a permission model)
 */
export class RequestThread {
  readonly #worker: ThreadWorker;
  readonly #options: RequestThreadOptions;
  readonly #idleExitMs: number;
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 0;
  #idleSince = 0;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** The idle timer was set for the whole wait (by {@link touch}): when it fires, the thread exits. */
  #idleTimerExact = false;
  #gone = false;

  constructor(options: RequestThreadOptions) {
    this.#options = options;
    this.#idleExitMs = options.idleExitMs ?? 5000;
    const worker = options.start();
    this.#worker = worker;
    worker.on('message', (message: unknown) => this.#receive(message));
    worker.on('error', (error: Error) => this.#fail(error));
    const exitMessage = options.exitMessage ?? ((code: number) => `the thread exited (code ${code})`);
    worker.on('exit', (code: number) => this.#fail(new Error(exitMessage(code))));
    // After the listeners: adding a 'message' listener refs the worker's port again.
    worker.unref();
  }

  /** Requests not answered yet. */
  get load(): number {
    return this.#waiting.size;
  }

  /** False once the thread has failed, exited or been stopped. */
  get running(): boolean {
    return !this.#gone;
  }

  /**
   * Posts `message` with a new `id` (moving `transfer`) and resolves with the reply of that `id`.
   * @throws (rejects) when the thread is gone, or goes before it answers
   */
  request<Reply extends { readonly id: number }>(
    message: object,
    transfer?: readonly unknown[],
  ): Promise<Reply> {
    if (this.#gone) return Promise.reject(new Error('the thread is not running'));
    const id = this.#nextId++;
    return new Promise<Reply>((resolve, reject) => {
      // While busy it keeps the process alive: someone awaits its answer.
      if (this.#waiting.size === 0) this.#worker.ref();
      this.#waiting.set(id, { resolve: resolve as (reply: { readonly id: number }) => void, reject });
      this.#worker.postMessage({ id, ...message }, transfer);
    });
  }

  /** Starts the idle wait (again) when nothing waits: a request is about to come. */
  touch(): void {
    if (this.#gone || this.#waiting.size > 0) return;
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => this.#checkIdle(), this.#idleExitMs);
    this.#idleTimerExact = true;
    unrefTimer(this.#idleTimer);
  }

  /** Stops the thread now; requests not answered reject with `error`. */
  async stop(error = new Error('the thread was stopped')): Promise<void> {
    this.#leave(undefined, error);
    await this.#worker.terminate();
  }

  #receive(message: unknown): void {
    const id = (message as { id?: unknown } | null)?.id;
    if (typeof id !== 'number') {
      this.#options.onMessage?.(message);
      return;
    }
    const waiting = this.#waiting.get(id);
    if (waiting === undefined) return;
    this.#waiting.delete(id);
    if (this.#waiting.size === 0) this.#rest();
    waiting.resolve(message as { readonly id: number });
  }

  /** Nothing to do: the thread no longer holds the process open, and exits after a while. */
  #rest(): void {
    this.#worker.unref();
    this.#idleSince = performance.now();
    this.#idleTimerExact = false;
    this.#idleTimer ??= setTimeout(() => this.#checkIdle(), this.#idleExitMs);
    unrefTimer(this.#idleTimer);
  }

  /** Exits after `idleExitMs` without a request: one timer per idle spell, not one per request. */
  #checkIdle(): void {
    this.#idleTimer = undefined;
    if (this.#waiting.size > 0 || this.#gone) return;
    const left = this.#idleTimerExact ? 0 : this.#idleExitMs - (performance.now() - this.#idleSince);
    if (left > 0) {
      this.#idleTimer = setTimeout(() => this.#checkIdle(), left);
      unrefTimer(this.#idleTimer);
      return;
    }
    void this.stop();
  }

  #fail(error: Error): void {
    this.#leave(error, error);
  }

  /** Marks the thread gone (once), tells the owner and rejects what waits. */
  #leave(reason: Error | undefined, rejection: Error): void {
    if (this.#gone) return;
    this.#gone = true;
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
    for (const waiting of this.#waiting.values()) waiting.reject(rejection);
    this.#waiting.clear();
    this.#options.onGone?.(reason);
  }
}

/** Node's timers can be told not to hold the process open; the web's are numbers. */
function unrefTimer(timer: unknown): void {
  (timer as { unref?: () => void }).unref?.();
}

import { RequestThread } from '@tfpipe/core/internal';
import type { ThreadWorker } from '@tfpipe/core/internal';

/** How long a thread stays alive without work (a next file may follow), milliseconds. */
const IDLE_EXIT_MS = 5000;

/**
 * A worker thread of the CSV byte path (the CSV thread, the index thread), started on first use: a
 * core `RequestThread` whose worker posts one message without an `id` once it has loaded. It exits
 * 5 s after its last answer and never holds the process open while it loads.
 */
export class LoadingThread {
  readonly #name: string;
  readonly #startWorker: () => ThreadWorker;
  #thread: RequestThread | undefined;
  #ready = false;
  /** Settles once the thread has loaded or is gone. */
  #loaded: Promise<void> = Promise.resolve();
  #markLoaded: () => void = () => undefined;
  /** A thread could not start here: never try again. */
  #unavailable = false;

  /** @param name - the thread's name in messages, e.g. `CSV` */
  constructor(name: string, startWorker: () => ThreadWorker) {
    this.#name = name;
    this.#startWorker = startWorker;
  }

  /** False once a thread could not start here (e.g. under a permission model). */
  get available(): boolean {
    return !this.#unavailable;
  }

  /** The thread, when it has loaded and is running. */
  get thread(): RequestThread | undefined {
    const thread = this.#thread;
    return this.#ready && thread?.running === true ? thread : undefined;
  }

  /** Requests not answered yet. */
  get load(): number {
    return this.#thread?.load ?? 0;
  }

  /** Starts the thread unless it runs; a failure to start marks it unavailable. */
  start(): void {
    if (this.#unavailable || this.#thread?.running === true) return;
    this.#ready = false;
    this.#loaded = new Promise((resolve) => (this.#markLoaded = resolve));
    try {
      this.#thread = new RequestThread({
        start: this.#startWorker,
        idleExitMs: IDLE_EXIT_MS,
        exitMessage: (code) => `the ${this.#name} thread exited (code ${code})`,
        // The thread says it has loaded: from then on work goes to it.
        onMessage: () => {
          this.#ready = true;
          this.#markLoaded();
        },
        onGone: () => this.#markLoaded(),
      });
    } catch {
      this.#unavailable = true;
      this.#markLoaded();
    }
  }

  /** Waits until the thread has loaded or is gone, holding the process open meanwhile. */
  async loaded(): Promise<void> {
    if (this.#ready) return;
    // The thread does not hold the process open while it loads: this wait must.
    const hold = setInterval(() => undefined, 60_000);
    try {
      await this.#loaded;
    } finally {
      clearInterval(hold);
    }
  }

  /** Stops the thread; requests it held reject. */
  async stop(): Promise<void> {
    const thread = this.#thread;
    this.#thread = undefined;
    this.#ready = false;
    await thread?.stop(new Error(`the ${this.#name} thread was stopped`));
  }
}

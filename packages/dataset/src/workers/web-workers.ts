import type { ThreadWorker } from '@tfpipe/core/internal';
import { invalidOption } from '../pipeline/chunks.js';
import { webSpanCrcs } from '../parse/span-crcs.js';
import type { ExampleParseSpec } from '../spec/feature-spec.js';
import { cachedParseWorkers } from './parse-workers.js';
import type { ParseWorkerLauncher, ParseWorkers } from './parse-workers.js';

/** What a parse Web Worker posts once it holds its lock (not a reply: no `id`). */
export interface LockedMessage {
  readonly locked: string;
}

/** The first message a tfpipe Web Worker gets: what it works with, and the Web Lock to hold while it lives. */
export type StartMessage<Init extends object = object> = Init & { readonly lock?: string };

let nextLock = 0;

/** The Web Locks API where the page has one (secure contexts), else undefined. */
function webLocks(): LockManager | undefined {
  return (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
}

/**
 * A module Web Worker (`create` starts it, `init` is its first message) as the `ThreadWorker` core's
 * `RequestThread` drives. A worker gives no exit
 * event, so each holds a Web Lock of its own from its start to its end: when the lock comes free, the
 * worker is gone (terminated, closed or crashed) and the batches it held fail. An error event (a
 * worker script that does not load, an uncaught error) ends the worker and fails them too.
 */
export class WebThreadWorker implements ThreadWorker {
  readonly #worker: Worker;
  readonly #messages: ((message: unknown) => void)[] = [];
  readonly #errors: ((error: Error) => void)[] = [];
  readonly #exits: ((code: number) => void)[] = [];
  #ended = false;

  /** @param role what the worker is, in error messages: `'parse worker'`, `'image worker'` */
  constructor(create: () => Worker, init: object, role: string) {
    this.#worker = create();
    const locks = webLocks();
    const lock = locks === undefined ? undefined : `tfpipe-parse-${nextLock++}-${Math.random()}`;
    this.#worker.addEventListener('message', (event: MessageEvent) => {
      const data = event.data as unknown;
      if (lock !== undefined && (data as Partial<LockedMessage> | null)?.locked === lock) {
        // Granted once the worker lets go of it, i.e. once the worker is gone.
        void locks!.request(lock, () => this.#end(() => this.#exits.forEach((listener) => listener(1))));
        return;
      }
      for (const listener of this.#messages) listener(data);
    });
    this.#worker.addEventListener('error', (event: Event) => {
      event.preventDefault();
      const message =
        event instanceof ErrorEvent && event.message !== ''
          ? `the ${role} failed: ${event.message}`
          : `the ${role} could not be loaded (a module Web Worker beside the package’s entry: see the README on bundlers)`;
      void this.terminate();
      this.#end(() => this.#errors.forEach((listener) => listener(new Error(message))));
    });
    this.#worker.addEventListener('messageerror', () => {
      void this.terminate();
      const error = new Error(`the ${role} sent a message that could not be read`);
      this.#end(() => this.#errors.forEach((listener) => listener(error)));
    });
    const start: StartMessage = lock === undefined ? init : { ...init, lock };
    this.#worker.postMessage(start);
  }

  postMessage(message: unknown, transfer?: readonly unknown[]): void {
    this.#worker.postMessage(message, (transfer ?? []) as Transferable[]);
  }

  on(event: 'message', listener: (message: unknown) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  on(event: 'exit', listener: (code: number) => void): this;
  on(event: 'message' | 'error' | 'exit', listener: (value: never) => void): this {
    const listeners = { message: this.#messages, error: this.#errors, exit: this.#exits }[event];
    (listeners as unknown[]).push(listener);
    return this;
  }

  // A Web Worker never holds a page open.
  ref(): void {}
  unref(): void {}

  terminate(): Promise<void> {
    this.#worker.terminate();
    return Promise.resolve();
  }

  /** Tells the listeners once that the worker is gone. */
  #end(tell: () => void): void {
    if (this.#ended) return;
    this.#ended = true;
    tell();
  }
}

/** Why the requests a Web Worker held failed when its lock came free. */
export function stoppedMessage(role: string): string {
  return `the ${role} stopped (terminated, closed or out of memory)`;
}

/** Parse workers on module Web Workers. */
const WEB_WORKERS: ParseWorkerLauncher = {
  start: (spec) =>
    new WebThreadWorker(
      // The pattern bundlers (webpack 5, Vite, Parcel) recognise: the worker module is found beside
      // this one, in the package's dist.
      () =>
        new Worker(new URL('./parse-worker-web.js', import.meta.url), {
          type: 'module',
          name: 'tfpipe parse',
        }),
      { spec },
      'parse worker',
    ),
  exitMessage: () => stoppedMessage('parse worker'),
  crcCheck: webSpanCrcs,
};

const workersBySpec = new WeakMap<object, Map<number, ParseWorkers<ExampleParseSpec>>>();

/**
 * The parse Web Workers of `spec` and `count` (kept while the spec object is, see `cachedParseWorkers`).
 * @throws TfpipeError `INVALID_OPTION` where there is no `Worker` (Node: use `@tfpipe/dataset/node`)
 */
export function parseWebWorkersFor<Spec extends ExampleParseSpec>(
  spec: Spec,
  count: number,
): ParseWorkers<Spec> {
  if (typeof Worker !== 'function')
    throw invalidOption(
      'parse',
      "workers > 1 needs Web Workers (a browser) or worker threads: in Node use '@tfpipe/dataset/node'",
    );
  return cachedParseWorkers(workersBySpec, spec, count, WEB_WORKERS);
}

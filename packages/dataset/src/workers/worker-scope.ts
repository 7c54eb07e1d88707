// The inside of a tfpipe module Web Worker (parse-worker-web.ts, image-worker-web.ts): the first
// message starts it (what it works with, and the Web Lock it holds until it ends, so the page notices
// when it is gone); every later message is a request, answered in order of completion.
import type { LockedMessage, StartMessage } from './web-workers.js';

/** The parts of a DedicatedWorkerGlobalScope used here (the package is typed with the DOM's globals). */
interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  postMessage(message: unknown, transfer: Transferable[]): void;
  readonly navigator: { readonly locks?: LockManager };
}

/** A request's answer: the reply to post and the buffers it moves. */
export interface Answer {
  readonly reply: object;
  readonly transfer: Transferable[];
}

/**
 * Serves this worker: `start(init)` (with the first message) returns the function that answers each
 * request after it.
 */
export function serveWebWorker<Init extends object>(
  start: (init: Init) => (request: { id: number }) => Answer | Promise<Answer>,
): void {
  const scope = globalThis as unknown as WorkerScope;
  let answer: ((request: { id: number }) => Answer | Promise<Answer>) | undefined;
  scope.addEventListener('message', (event) => {
    if (answer === undefined) {
      const init = event.data as StartMessage<Init>;
      answer = start(init);
      const lock = init.lock;
      if (lock !== undefined && scope.navigator.locks !== undefined)
        void scope.navigator.locks.request(lock, () => {
          const locked: LockedMessage = { locked: lock };
          scope.postMessage(locked, []);
          // Held for the worker's life.
          return new Promise<never>(() => undefined);
        });
      return;
    }
    void Promise.resolve(answer(event.data as { id: number })).then(({ reply, transfer }) =>
      scope.postMessage(reply, transfer),
    );
  });
}

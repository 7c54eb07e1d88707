// A parse Web Worker (a module worker started by web-parse-workers.ts): its first message is its spec
// and the Web Lock it holds until it ends (so the page notices it is gone); it then answers each batch
// of serialized Examples (answer-spans.ts).
import { crc32c } from '@tfpipe/sink-tfrecord/web';
import type { SpanRequest } from './parse-workers.js';
import type { LockedMessage, StartMessage } from './web-parse-workers.js';
import { spanAnswerer } from './answer-spans.js';

/** The parts of a DedicatedWorkerGlobalScope used here (the package is typed with the DOM's globals). */
interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  postMessage(message: unknown, transfer: Transferable[]): void;
  readonly navigator: { readonly locks?: LockManager };
}

const scope = globalThis as unknown as WorkerScope;
let answer: ReturnType<typeof spanAnswerer> | undefined;

scope.addEventListener('message', (event) => {
  if (answer === undefined) {
    const { spec, lock } = event.data as StartMessage;
    answer = spanAnswerer(spec, (bytes, _view, start, end) => crc32c(bytes.subarray(start, end)));
    if (lock !== undefined && scope.navigator.locks !== undefined)
      void scope.navigator.locks.request(lock, () => {
        const locked: LockedMessage = { locked: lock };
        scope.postMessage(locked, []);
        // Held for the worker's life.
        return new Promise<never>(() => undefined);
      });
    return;
  }
  const { reply, transfer } = answer(event.data as SpanRequest & { id: number });
  scope.postMessage(reply, transfer);
});

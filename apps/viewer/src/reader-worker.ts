// The Web Worker that reads: the page stays responsive while a file of any size is verified.
import { byteSource } from './byte-source.js';
import { OpenFile } from './open-file.js';
import type { WorkerRequest, WorkerResponse } from './worker-protocol.js';

// The DOM and WebWorker libs cannot both be in one program; this is all of the worker scope used.
const scope = globalThis as unknown as {
  postMessage(message: WorkerResponse): void;
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
};

let opened: OpenFile | undefined;
const post = (message: WorkerResponse): void => scope.postMessage(message);

scope.onmessage = (event: MessageEvent<WorkerRequest>): void => {
  void handle(event.data).catch((error: unknown) =>
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
};

async function handle(request: WorkerRequest): Promise<void> {
  if (request.type === 'open') {
    opened = new OpenFile(byteSource(request.source));
    return opened.scan(post);
  }
  if (opened === undefined) return;
  if (request.type === 'rows') {
    post({ type: 'rows', id: request.id, rows: await opened.rows(request.start, request.count) });
  } else if (request.type === 'record') {
    post({ type: 'record', id: request.id, record: await opened.record(request.row) });
  } else {
    post({ type: 'rowOf', id: request.id, row: opened.index.rowOf(request.recordIndex) });
  }
}

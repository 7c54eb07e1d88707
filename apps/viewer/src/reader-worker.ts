// The Web Worker that reads: the page stays responsive while a file of any size is verified.
import { byteSource } from './byte-source.js';
import { checkIndex, readIndexFile, type IndexEntry } from './index-check.js';
import { OpenFile } from './open-file.js';
import type { FileSource, WorkerRequest, WorkerResponse } from './worker-protocol.js';

// The DOM and WebWorker libs cannot both be in one program; this is all of the worker scope used.
const scope = globalThis as unknown as {
  postMessage(message: WorkerResponse): void;
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
};

let opened: OpenFile | undefined;
const post = (message: WorkerResponse): void => scope.postMessage(message);
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

scope.onmessage = (event: MessageEvent<WorkerRequest>): void => {
  const request = event.data;
  void handle(request).catch((error: unknown) =>
    post(
      'id' in request
        ? { type: 'error', id: request.id, message: errorText(error) }
        : { type: 'failed', message: errorText(error) },
    ),
  );
};

async function handle(request: WorkerRequest): Promise<void> {
  if (request.type === 'open') {
    opened = new OpenFile(byteSource(request.source));
    const index = request.index === undefined ? undefined : await readIndex(request.index);
    await opened.scan(post);
    if (index !== undefined && request.index !== undefined) {
      const { lost, index: records } = opened;
      const name = byteSource(request.index).name;
      const check = checkIndex(name, index, records, records.count + lost.length);
      post({ type: 'index', name, entries: index.length, error: undefined, check });
    }
    return;
  }
  if (opened === undefined) throw new Error('no file is open in this worker');
  switch (request.type) {
    case 'rows':
      return post({ type: 'rows', id: request.id, rows: await opened.rows(request.start, request.count) });
    case 'record':
      return post({ type: 'record', id: request.id, record: await opened.record(request.row) });
    case 'rowOf':
      return post({ type: 'rowOf', id: request.id, row: opened.rowOf(request.recordIndex) });
    case 'thumbnails':
      return post({
        type: 'thumbnails',
        id: request.id,
        thumbnails: await opened.thumbnails(request.start, request.count),
      });
    case 'profile':
      return post({ type: 'profile', id: request.id, profile: await opened.profile(post) });
    case 'export': {
      const partial = !opened.scanned;
      const { blob, records } = await opened.exportShown(post);
      return post({ type: 'exported', id: request.id, blob, records, partial });
    }
    case 'select': {
      const selection = request.selection;
      try {
        post({
          type: 'selected',
          id: request.id,
          ...(await opened.select(selection, post)),
          error: undefined,
        });
      } catch (error) {
        post({
          type: 'selected',
          id: request.id,
          count: -1,
          of: 0,
          partial: false,
          error: errorText(error),
        });
      }
    }
  }
}

/** Reads and parses a shard's `.idx` (bounded), posting what it lists or why it cannot be used. */
async function readIndex(source: FileSource): Promise<IndexEntry[] | undefined> {
  try {
    const entries = await readIndexFile(source);
    post({
      type: 'index',
      name: byteSource(source).name,
      entries: entries.length,
      error: undefined,
      check: undefined,
    });
    return entries;
  } catch (error) {
    post({
      type: 'index',
      name: byteSource(source).name,
      entries: -1,
      error: errorText(error),
      check: undefined,
    });
    return undefined;
  }
}

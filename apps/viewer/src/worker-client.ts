import type { Selection } from './row-selection.js';
import type { DatasetProfile } from './stats/dataset-profile.js';
import type {
  FileSource,
  RecordDetail,
  RecordRow,
  Thumbnail,
  WorkerRequest,
  WorkerResponse,
} from './worker-protocol.js';

type Reply = Extract<WorkerResponse, { id: number }>;
/** What the reading pass tells the page while it runs. */
export type ScanEvent = Exclude<WorkerResponse, Reply>;

/** A request the worker could not answer: it threw, the worker failed, or the file was closed. */
export class WorkerRequestError extends Error {
  override name = 'WorkerRequestError';
}

/**
 * The page's side of the reader worker: one worker per open file (a new file ends the old worker, and
 * with it any pass still running), requests answered by id. A request the worker throws on rejects
 * with a {@link WorkerRequestError}, and so do the calls pending when the worker fails or is closed.
 */
export class WorkerClient {
  readonly #worker: Worker;
  readonly #pending = new Map<
    number,
    { resolve: (reply: Reply) => void; reject: (error: WorkerRequestError) => void }
  >();
  #nextId = 0;

  /**
   * @param source - the file to read.
   * @param onEvent - what the reading pass (and later passes) report.
   * @param index - the file's DALI `.idx`, when a folder or `tfpipe view DIR` has one beside it.
   */
  constructor(source: FileSource, onEvent: (event: ScanEvent) => void, index?: FileSource) {
    this.#worker = new Worker(new URL('./reader-worker.ts', import.meta.url), { type: 'module' });
    this.#worker.onmessage = (event: MessageEvent<WorkerResponse>): void => {
      const message = event.data;
      if ('id' in message) {
        const pending = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.type === 'error') pending?.reject(new WorkerRequestError(message.message));
        else pending?.resolve(message);
      } else {
        onEvent(message);
      }
    };
    this.#worker.onerror = (event): void => {
      onEvent({ type: 'failed', message: event.message });
      this.#rejectPending(`the reader worker failed: ${event.message}`);
    };
    this.#send({ type: 'open', source, index });
  }

  /** Table rows `[start, start + count)`. */
  async rows(start: number, count: number): Promise<readonly RecordRow[]> {
    const reply = await this.#ask((id) => ({ type: 'rows', id, start, count }));
    return reply.type === 'rows' ? reply.rows : [];
  }

  /** The decoded record on table row `row`. */
  async record(row: number): Promise<RecordDetail | undefined> {
    const reply = await this.#ask((id) => ({ type: 'record', id, row }));
    return reply.type === 'record' ? reply.record : undefined;
  }

  /** The table row of the record with index `recordIndex` in its file (or of the next readable one). */
  async rowOf(recordIndex: number): Promise<number> {
    const reply = await this.#ask((id) => ({ type: 'rowOf', id, recordIndex }));
    return reply.type === 'rowOf' ? reply.row : -1;
  }

  /** The first image and boxes of table rows `[start, start + count)`. */
  async thumbnails(start: number, count: number): Promise<readonly Thumbnail[]> {
    const reply = await this.#ask((id) => ({ type: 'thumbnails', id, start, count }));
    return reply.type === 'thumbnails' ? reply.thumbnails : [];
  }

  /** The schema and statistics of the file (one pass, then kept). */
  async profile(): Promise<DatasetProfile | undefined> {
    const reply = await this.#ask((id) => ({ type: 'profile', id }));
    return reply.type === 'profile' ? reply.profile : undefined;
  }

  /** Shows the rows `selection` keeps; resolves to their number, or the error in the selection. */
  async select(selection: Selection): Promise<Extract<Reply, { type: 'selected' }>> {
    const reply = await this.#ask((id) => ({ type: 'select', id, selection }));
    if (reply.type !== 'selected') throw new WorkerRequestError(`a ${reply.type} reply to a selection`);
    return reply;
  }

  /** The rows shown, as a new `.tfrecord` file. */
  async exportShown(): Promise<{ blob: Blob; records: number; partial: boolean } | undefined> {
    const reply = await this.#ask((id) => ({ type: 'export', id }));
    return reply.type === 'exported' ? reply : undefined;
  }

  /** Ends the worker. */
  close(): void {
    this.#worker.terminate();
    this.#rejectPending('the file was closed');
  }

  #ask(request: (id: number) => WorkerRequest): Promise<Reply> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#send(request(id));
    });
  }

  #rejectPending(message: string): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const { reject } of pending) reject(new WorkerRequestError(message));
  }

  #send(request: WorkerRequest): void {
    this.#worker.postMessage(request);
  }
}

import { byId } from './dom.js';
import type { Selection } from './row-selection.js';
import type { ScanEvent, WorkerClient } from './worker-client.js';
import { counted } from './words.js';

const count = new Intl.NumberFormat('en');
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const PASS_VERBS = { profile: 'Statistics', select: 'Filtering', export: 'Exporting' } as const;

/**
 * The browse bar: filter by an expression, a seeded random sample, every k-th record, all of them
 * again, and the export of the records shown. While the reading pass goes on it acts on the records
 * read so far, and says so.
 */
export class BrowseBar {
  /** Whether the reading pass is done. */
  ready = false;
  /** Whether the table shows a selection (a filter, a sample, every k-th) rather than every record. */
  selecting = false;
  /** The selection's line was written while the reading pass went on. */
  #partial = false;
  #fileName = '';
  readonly #info = byId('selection-info');

  constructor(
    private readonly client: () => WorkerClient | undefined,
    private readonly onSelected: (count: number) => void,
  ) {
    const number = (id: string): number => Number(byId<HTMLInputElement>(id).value);
    this.#form('filter-form', () => {
      const expression = byId<HTMLInputElement>('filter').value.trim();
      return [expression === '' ? { kind: 'all' } : { kind: 'filter', expression }, `match ${expression}`];
    });
    this.#form('sample-form', () => [
      { kind: 'sample', count: number('sample-count'), seed: number('sample-seed') },
      `in a random sample (seed ${byId<HTMLInputElement>('sample-seed').value})`,
    ]);
    this.#form('every-form', () => [
      { kind: 'every', step: number('every-step'), start: 0 },
      `every ${byId<HTMLInputElement>('every-step').value}th`,
    ]);
    byId('show-all').addEventListener('click', () => void this.#select({ kind: 'all' }, ''));
    byId('export').addEventListener('click', () => void this.#export());
  }

  /** A new file: nothing selected, not ready. */
  reset(fileName: string): void {
    this.ready = false;
    this.selecting = false;
    this.#partial = false;
    this.#fileName = fileName;
    this.#info.textContent = '';
    delete this.#info.dataset.state;
  }

  /** Follows the worker's events: the end of the reading pass, and the progress of later passes. */
  show(event: ScanEvent): void {
    if (event.type === 'done') {
      this.ready = true;
      if (this.#partial && this.selecting) {
        this.#say(
          `${this.#info.textContent ?? ''}; the file is now read: apply again for all ${count.format(event.records)}`,
          'selected',
        );
      }
      this.#partial = false;
    } else if (event.type === 'pass') {
      this.#info.textContent = `${PASS_VERBS[event.task]}: ${count.format(event.done)} of ${counted(event.total, 'record')}`;
    }
  }

  #form(id: string, selection: () => [Selection, string]): void {
    byId(id).addEventListener('submit', (event) => {
      event.preventDefault();
      const [chosen, words] = selection();
      void this.#select(chosen, chosen.kind === 'all' ? '' : words);
    });
  }

  async #select(selection: Selection, words: string): Promise<void> {
    const client = this.client();
    if (client === undefined) return;
    let result: Awaited<ReturnType<WorkerClient['select']>>;
    try {
      result = await client.select(selection);
    } catch (error) {
      if (client === this.client()) this.#say(`Cannot select: ${errorText(error)}`, 'error');
      return;
    }
    if (client !== this.client()) return;
    if (result.error !== undefined) {
      this.#say(result.error, 'error');
      return;
    }
    this.selecting = selection.kind !== 'all';
    this.#partial = result.partial;
    this.onSelected(result.count);
    const so = result.partial ? ' read so far (the file is still being read)' : '';
    this.#say(
      words === ''
        ? `All ${counted(result.count, 'record')}${so}`
        : `${count.format(result.count)} of ${counted(result.of, 'record')}${so} ${words}`,
      'selected',
    );
  }

  async #export(): Promise<void> {
    const client = this.client();
    if (client === undefined) return;
    const shown = this.#info.textContent;
    let exported: Awaited<ReturnType<WorkerClient['exportShown']>>;
    try {
      exported = await client.exportShown();
    } catch (error) {
      if (client === this.client()) this.#say(`Cannot export: ${errorText(error)}`, 'error');
      return;
    }
    if (exported === undefined || client !== this.client()) return;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(exported.blob);
    const stem = this.#fileName.replace(/^.*\//, '').replace(/\.(tfrecords?|tfrec)?(\.gz|\.zz)?$/, '');
    link.download = `${stem}-${exported.records}-records.tfrecord`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    this.#say(
      `${shown === '' ? '' : `${shown}; `}exported ${counted(exported.records, 'record')}${exported.partial ? ' (those read so far)' : ''} to ${link.download}`,
      'exported',
    );
  }

  #say(text: string, state: string): void {
    this.#info.textContent = text;
    this.#info.dataset.state = state;
  }
}

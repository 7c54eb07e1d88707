import { element } from './dom.js';
import type { RecordRow } from './worker-protocol.js';

/** The height of one table row, in CSS pixels (the stylesheet's `.record-row` matches it). */
export const ROW_HEIGHT = 28;
/** The tallest scroll area browsers lay out reliably, in CSS pixels; past it rows are scaled. */
const MAX_SCROLL_HEIGHT = 8_000_000;
/** Row summaries kept in memory; the rest are asked for again. @default 4000 */
const MAX_CACHED_ROWS = 4000;

/**
 * A virtualized table of records: only the rows in view exist in the DOM, so ten million records
 * scroll as smoothly as ten. Rows are fetched from the worker a window at a time.
 */
export class RecordTable {
  #count = 0;
  #selected = -1;
  #first = 0;
  readonly #cache = new Map<number, RecordRow>();
  #loading = false;
  #stale = false;
  /** Bumped by `reset`: rows asked for before it belong to another file or selection. */
  #generation = 0;
  readonly #spacer = element('div', 'table-spacer');
  readonly #layer = element('div', 'table-rows');

  constructor(
    private readonly viewport: HTMLElement,
    private readonly fetchRows: (start: number, count: number) => Promise<readonly RecordRow[]>,
    private readonly onSelect: (row: number) => void,
  ) {
    viewport.replaceChildren(this.#spacer, this.#layer);
    viewport.addEventListener('scroll', () => this.render());
    new ResizeObserver(() => this.render()).observe(viewport);
    this.#layer.addEventListener('click', (event) => {
      const row = (event.target as HTMLElement).closest<HTMLElement>('.record-row')?.dataset.row;
      if (row !== undefined) this.select(Number(row));
    });
  }

  /** How many rows fit the viewport. */
  get visibleRows(): number {
    return Math.max(1, Math.floor(this.viewport.clientHeight / ROW_HEIGHT));
  }

  /** The selected row, or -1. */
  get selected(): number {
    return this.#selected;
  }

  /** Sets how many rows there are (it grows while the file is read). */
  setCount(count: number): void {
    if (count === this.#count) return;
    this.#count = count;
    this.#spacer.style.height = `${Math.min(count * ROW_HEIGHT, MAX_SCROLL_HEIGHT)}px`;
    this.render();
  }

  /** Forgets every row (a new file). */
  reset(): void {
    this.#generation++;
    this.#cache.clear();
    this.#selected = -1;
    this.#count = -1;
    this.setCount(0);
    this.viewport.scrollTop = 0;
  }

  /** Selects `row` (clamped to the table), scrolls it into view and tells the page. */
  select(row: number): void {
    if (this.#count <= 0) return;
    const target = Math.max(0, Math.min(this.#count - 1, row));
    this.#selected = target;
    if (target < this.#first || target >= this.#first + this.visibleRows) this.#scrollTo(target);
    this.render();
    this.onSelect(target);
  }

  /** Draws the rows in view, asking the worker for those not yet known. */
  render(): void {
    const visible = this.visibleRows + 1;
    const scrollable = this.viewport.scrollHeight - this.viewport.clientHeight;
    const scaled = this.#count * ROW_HEIGHT > MAX_SCROLL_HEIGHT;
    this.#first = scaled
      ? Math.round(
          (this.viewport.scrollTop / Math.max(1, scrollable)) * Math.max(0, this.#count - visible + 1),
        )
      : Math.floor(this.viewport.scrollTop / ROW_HEIGHT);
    this.#first = Math.max(0, Math.min(this.#first, this.#count - 1));
    this.#layer.style.transform = `translateY(${scaled ? this.viewport.scrollTop : this.#first * ROW_HEIGHT}px)`;
    const rows: HTMLElement[] = [];
    let missing = false;
    for (let row = this.#first; row < Math.min(this.#count, this.#first + visible); row++) {
      const known = this.#cache.get(row);
      missing ||= known === undefined;
      rows.push(this.#rowElement(row, known));
    }
    this.#layer.replaceChildren(...rows);
    if (missing) void this.#load();
  }

  #rowElement(row: number, known: RecordRow | undefined): HTMLElement {
    const cells = known
      ? [String(known.recordIndex), String(known.byteOffset), String(known.length), known.summary]
      : [String(row), '', '', '…'];
    const node = element('div', `record-row${row === this.#selected ? ' selected' : ''}`);
    node.append(...cells.map((text, index) => element('span', `cell cell-${index}`, text)));
    node.dataset.row = String(row);
    node.setAttribute('role', 'row');
    node.setAttribute('aria-selected', String(row === this.#selected));
    return node;
  }

  #scrollTo(row: number): void {
    const scaled = this.#count * ROW_HEIGHT > MAX_SCROLL_HEIGHT;
    const scrollable = this.viewport.scrollHeight - this.viewport.clientHeight;
    this.viewport.scrollTop = scaled
      ? (row / Math.max(1, this.#count - this.visibleRows)) * scrollable
      : Math.max(0, (row - Math.floor(this.visibleRows / 2)) * ROW_HEIGHT);
  }

  async #load(): Promise<void> {
    if (this.#loading) {
      this.#stale = true;
      return;
    }
    this.#loading = true;
    let added = 0;
    const generation = this.#generation;
    try {
      const rows = await this.fetchRows(this.#first, this.visibleRows + 1);
      if (this.#cache.size > MAX_CACHED_ROWS) this.#cache.clear();
      if (generation === this.#generation) for (const row of rows) this.#cache.set(row.row, row);
      added = rows.length;
    } finally {
      this.#loading = false;
    }
    // Rows that came back redraw the view; a scroll during the fetch asks for its own window.
    const stale = this.#stale;
    this.#stale = false;
    if (stale || added > 0) this.render();
  }
}

import { byId, element } from './dom.js';
import { imageView } from './image-view.js';
import type { Thumbnail } from './worker-protocol.js';

/** Records on one page of the grid. @default 48 */
export const GRID_PAGE_RECORDS = 48;

/**
 * The image grid: a page of records of the table (the selection, when there is one), each drawn as its
 * first image with its boxes; a click opens the record.
 */
export class GridView {
  #start = 0;
  #count = 0;
  #drawing = 0;
  readonly #grid = byId('grid');
  readonly #info = byId('grid-info');

  constructor(
    private readonly fetchThumbnails: (start: number, count: number) => Promise<readonly Thumbnail[]>,
    private readonly onOpen: (row: number) => void,
  ) {
    byId('grid-previous').addEventListener('click', () => void this.show(this.#start - GRID_PAGE_RECORDS));
    byId('grid-next').addEventListener('click', () => void this.show(this.#start + GRID_PAGE_RECORDS));
    this.#grid.addEventListener('click', (event) => {
      const row = (event.target as HTMLElement).closest<HTMLElement>('.grid-cell')?.dataset.row;
      if (row !== undefined) this.onOpen(Number(row));
    });
  }

  /** Sets how many rows the table has. */
  setCount(count: number): void {
    this.#count = count;
  }

  /** Draws the page that holds row `row` (pages start at multiples of {@link GRID_PAGE_RECORDS}). */
  async showRow(row: number): Promise<void> {
    return this.show(Math.floor(Math.max(0, row) / GRID_PAGE_RECORDS) * GRID_PAGE_RECORDS);
  }

  /** Draws the page starting at row `start`. */
  async show(start: number): Promise<void> {
    const first = Math.max(0, Math.min(start, Math.max(0, this.#count - 1)));
    this.#start = first - (first % GRID_PAGE_RECORDS);
    const drawing = ++this.#drawing;
    const thumbnails = await this.fetchThumbnails(this.#start, GRID_PAGE_RECORDS);
    const cells = await Promise.all(thumbnails.map((thumbnail) => cell(thumbnail)));
    if (drawing !== this.#drawing) return;
    const last = this.#start + thumbnails.length;
    this.#info.textContent =
      this.#count === 0 ? 'No records' : `Rows ${this.#start + 1}–${last} of ${this.#count}`;
    this.#grid.replaceChildren(...cells);
    this.#grid.dataset.start = String(this.#start);
  }
}

async function cell(thumbnail: Thumbnail): Promise<HTMLElement> {
  const { image } = thumbnail;
  const picture =
    image === undefined
      ? element('p', 'muted no-image', 'no image')
      : await imageView(image, thumbnail.boxes);
  const node = element(
    'button',
    'grid-cell',
    picture,
    element('span', 'grid-caption', `#${thumbnail.recordIndex}`),
  );
  node.type = 'button';
  node.dataset.row = String(thumbnail.row);
  node.title = `Record ${thumbnail.recordIndex}: open it`;
  return node;
}

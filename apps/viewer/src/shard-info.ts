import { element } from './dom.js';
import { manifestView, readManifest, sourceName, type Manifest, type Shard } from './shard-files.js';
import type { IndexCheck } from './index-check.js';
import type { FileSource } from './worker-protocol.js';
import type { ScanEvent } from './worker-client.js';
import { counted } from './words.js';

/** The panel above the table for a shard of a folder: its `.idx` (used and checked) and the manifest. */
export class ShardInfo {
  #manifests: (Manifest | string)[] = [];
  #shard: Shard | undefined;
  #records: number | undefined;
  #index: HTMLElement | undefined;

  constructor(private readonly container: HTMLElement) {}

  /** Reads the manifests among the picked files (a bad one is shown as a message). */
  setManifests(sources: readonly FileSource[]): void {
    this.#manifests = [];
    void Promise.all(
      sources.map((source) =>
        readManifest(source).catch((error: unknown) =>
          error instanceof Error ? error.message : String(error),
        ),
      ),
    ).then((manifests) => {
      this.#manifests = manifests;
      this.#render();
    });
  }

  /** A shard is opened. */
  open(shard: Shard): void {
    this.#shard = shard;
    this.#records = undefined;
    this.#index =
      shard.index === undefined
        ? undefined
        : element('p', 'index-line', `${sourceName(shard.index)}: reading…`);
    this.#render();
  }

  /** Follows the reading pass: the index file's lines, its check, the records found. */
  show(event: ScanEvent): void {
    if (event.type === 'done') {
      this.#records = event.records;
      this.#render();
    } else if (event.type === 'index') {
      this.#index = indexLine(event.name, event.entries, event.error, event.check);
      this.#render();
    }
  }

  #render(): void {
    const parts: HTMLElement[] = [];
    if (this.#index !== undefined) parts.push(this.#index);
    const shard = this.#shard;
    for (const manifest of this.#manifests) {
      if (typeof manifest === 'string') parts.push(element('p', 'warning', manifest));
      else if (shard !== undefined) {
        const size = shard.source.kind === 'file' ? shard.source.file.size : shard.source.size;
        parts.push(manifestView(manifest, { name: sourceName(shard.source), records: this.#records, size }));
      }
    }
    this.container.replaceChildren(...parts);
    this.container.hidden = parts.length === 0;
  }
}

function indexLine(
  name: string,
  entries: number,
  error: string | undefined,
  check: IndexCheck | undefined,
): HTMLElement {
  if (error !== undefined) return element('p', 'index-line warning', `Index ${name} not used: ${error}`);
  if (check === undefined)
    return element('p', 'index-line', `Index ${name}: ${counted(entries, 'record')} listed; checking…`);
  if (check.mismatchCount === 0) {
    const line = element(
      'p',
      'index-line ok',
      `Index ${name}: ${counted(entries, 'record')} listed, every offset and size matches the file`,
    );
    line.dataset.check = 'ok';
    return line;
  }
  const line = element(
    'details',
    'index-line warning',
    element(
      'summary',
      '',
      `Index ${name}: ${counted(entries, 'record')} listed, ${check.mismatchCount === 1 ? '1 line disagrees' : `${check.mismatchCount} lines disagree`} with the file`,
    ),
    element('ol', 'index-mismatches', ...check.mismatches.map((text) => element('li', '', text))),
  );
  line.dataset.check = 'mismatch';
  return line;
}

// The page: picks files (input, drop, or those `tfpipe view` serves), runs one reader worker per file,
// and wires the table, the record view, the theme and the keys together.
import { byId } from './dom.js';
import { RecordTable } from './record-table.js';
import { renderRecord } from './record-view.js';
import { servedFiles } from './served-files.js';
import { StatusView } from './status-view.js';
import { initTheme, toggleTheme } from './theme.js';
import { WorkerClient } from './worker-client.js';
import type { FileSource } from './worker-protocol.js';

const status = new StatusView();
const recordView = byId('record-view');
const fileList = byId<HTMLSelectElement>('file-list');
let client: WorkerClient | undefined;
let sources: FileSource[] = [];
let shownRow = -1;

const table = new RecordTable(
  byId('record-table'),
  (start, count) => client?.rows(start, count) ?? Promise.resolve([]),
  (row) => void showRecord(row),
);

async function showRecord(row: number): Promise<void> {
  shownRow = row;
  const record = await client?.record(row);
  if (record !== undefined && shownRow === row) await renderRecord(recordView, record);
}

function open(source: FileSource): void {
  client?.close();
  const name = source.kind === 'file' ? source.file.name : source.name;
  byId('file-name').textContent = name;
  status.reset(name);
  delete byId('status').dataset.done;
  table.reset();
  recordView.replaceChildren();
  client = new WorkerClient(source, (event) => {
    status.show(event);
    if (event.type === 'progress' || event.type === 'done') {
      table.setCount(event.records);
      if (table.selected < 0 && event.records > 0) table.select(0);
    }
  });
}

function openAll(list: FileSource[]): void {
  if (list.length === 0) return;
  sources = list;
  fileList.replaceChildren(
    ...list.map(
      (source, index) => new Option(source.kind === 'file' ? source.file.name : source.name, String(index)),
    ),
  );
  fileList.hidden = list.length < 2;
  open(list[0]!);
}

const fromFiles = (files: FileList | null): FileSource[] =>
  Array.from(files ?? [], (file): FileSource => ({ kind: 'file', file }));

byId<HTMLInputElement>('file-input').addEventListener('change', (event) => {
  openAll(fromFiles((event.target as HTMLInputElement).files));
});
fileList.addEventListener('change', () => open(sources[Number(fileList.value)]!));

const overlay = byId('drop-overlay');
document.addEventListener('dragover', (event) => {
  event.preventDefault();
  overlay.hidden = false;
});
document.addEventListener('dragleave', (event) => {
  if (event.relatedTarget === null) overlay.hidden = true;
});
document.addEventListener('drop', (event) => {
  event.preventDefault();
  overlay.hidden = true;
  openAll(fromFiles(event.dataTransfer?.files ?? null));
});

byId('previous').addEventListener('click', () => table.select(table.selected - 1));
byId('next').addEventListener('click', () => table.select(table.selected + 1));
byId('jump-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const recordIndex = Number(byId<HTMLInputElement>('jump').value);
  void client?.rowOf(recordIndex).then((row) => table.select(row));
});
byId('theme-toggle').addEventListener('click', toggleTheme);

const KEYS: Record<string, () => void> = {
  ArrowDown: () => table.select(table.selected + 1),
  j: () => table.select(table.selected + 1),
  ArrowUp: () => table.select(table.selected - 1),
  k: () => table.select(table.selected - 1),
  PageDown: () => table.select(table.selected + table.visibleRows),
  PageUp: () => table.select(table.selected - table.visibleRows),
  Home: () => table.select(0),
  End: () => table.select(Number.MAX_SAFE_INTEGER),
  g: () => byId('jump').focus(),
  o: () => byId('file-input').click(),
  t: toggleTheme,
};
document.addEventListener('keydown', (event) => {
  const target = event.target as HTMLElement;
  if (target.closest('input, select, textarea') !== null || event.ctrlKey || event.metaKey || event.altKey)
    return;
  const action = KEYS[event.key];
  if (action === undefined) return;
  event.preventDefault();
  action();
});

initTheme();
void servedFiles().then(openAll);

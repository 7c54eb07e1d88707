// The page: picks files (input, folder, drop, or those `tfpipe view` serves), runs one reader worker
// per file, and wires the table, the record view, the grid, the statistics, the theme and the keys.
import { BrowseBar } from './browse-bar.js';
import { byId } from './dom.js';
import { droppedEntries, entryFiles } from './dropped-files.js';
import { GridView } from './grid-view.js';
import { RecordTable } from './record-table.js';
import { renderRecord } from './record-view.js';
import { servedFiles } from './served-files.js';
import { ShardInfo } from './shard-info.js';
import { shardSet, sourceName, type Shard } from './shard-files.js';
import { renderStats } from './stats-view.js';
import { StatusView } from './status-view.js';
import { counted } from './words.js';
import { initTheme, toggleTheme } from './theme.js';
import { WorkerClient, WorkerRequestError } from './worker-client.js';
import type { FileSource } from './worker-protocol.js';

const status = new StatusView();
const recordView = byId('record-view');
const statsView = byId('stats-view');
const fileList = byId<HTMLSelectElement>('file-list');
const shardInfo = new ShardInfo(byId('shard-info'));
let client: WorkerClient | undefined;
let shards: readonly Shard[] = [];
let shownRow = -1;
let statsShown = false;
type Tab = 'records' | 'grid' | 'stats';
let tab: Tab = 'records';

/**
 * Asks the open file's worker; a request it could not answer is said on the page and resolves to
 * `fallback` (quietly when its file was closed meanwhile).
 */
async function ask<T>(what: string, request: (asked: WorkerClient) => Promise<T>, fallback: T): Promise<T> {
  const asked = client;
  if (asked === undefined) return fallback;
  try {
    return await request(asked);
  } catch (error) {
    if (asked === client) status.requestFailed(what, error instanceof Error ? error.message : String(error));
    if (!(error instanceof WorkerRequestError)) throw error;
    return fallback;
  }
}

const table = new RecordTable(
  byId('record-table'),
  (start, count) => ask('read the table rows', (asked) => asked.rows(start, count), []),
  (row) => void showRecord(row),
);
const grid = new GridView(
  (start, count) => ask('read the grid', (asked) => asked.thumbnails(start, count), []),
  (row) => {
    showTab('records');
    table.select(row);
  },
);
const browse = new BrowseBar(
  () => client,
  (count) => {
    table.reset();
    table.setCount(count);
    grid.setCount(count);
    if (count > 0) table.select(0);
    else recordView.replaceChildren();
    if (tab === 'grid') void grid.show(0);
  },
);

async function showRecord(row: number): Promise<void> {
  shownRow = row;
  const record = await ask(`read row ${row}`, (asked) => asked.record(row), undefined);
  if (record !== undefined && shownRow === row) await renderRecord(recordView, record);
}

function showTab(next: Tab): void {
  tab = next;
  for (const name of ['records', 'grid', 'stats'] as const) {
    byId(`tab-${name}`).setAttribute('aria-selected', String(name === next));
  }
  byId('records-view').hidden = next !== 'records';
  byId('grid-view').hidden = next !== 'grid';
  statsView.hidden = next !== 'stats';
  if (next === 'grid') void grid.showRow(Math.max(0, table.selected));
  if (next === 'stats' && !statsShown && client !== undefined && browse.ready) {
    statsShown = true;
    const asked = client;
    statsView.replaceChildren(document.createTextNode('Reading every record for the statistics…'));
    void ask('compute the statistics', (current) => current.profile(), undefined).then((profile) => {
      if (asked !== client) return;
      if (profile !== undefined) renderStats(statsView, profile);
      else {
        statsShown = false;
        statsView.replaceChildren(document.createTextNode('The statistics could not be computed.'));
      }
    });
  }
}

function open(shard: Shard): void {
  client?.close();
  const name = sourceName(shard.source);
  byId('file-name').textContent = name;
  status.reset(name);
  delete byId('status').dataset.done;
  table.reset();
  grid.setCount(0);
  browse.reset(name);
  statsShown = false;
  statsView.replaceChildren(
    document.createTextNode(
      'Statistics appear once the file is read: they take one more pass over every readable record, and a profile of the records read so far would pass for the whole file’s.',
    ),
  );
  recordView.replaceChildren();
  shardInfo.open(shard);
  client = new WorkerClient(
    shard.source,
    (event) => {
      status.show(event);
      browse.show(event);
      shardInfo.show(event);
      // A selection made while the file is read keeps its rows; otherwise the table grows.
      if ((event.type === 'progress' || event.type === 'done') && !browse.selecting) {
        table.setCount(event.records);
        grid.setCount(event.records);
        if (table.selected < 0 && event.records > 0) table.select(0);
      }
      if (event.type === 'done' && tab !== 'records') showTab(tab);
    },
    shard.index,
  );
}

function openAll(list: readonly FileSource[]): void {
  if (list.length === 0) return;
  const set = shardSet(list);
  shards = set.shards;
  shardInfo.setManifests(set.manifests);
  fileList.replaceChildren(
    ...shards.map((shard, index) => new Option(sourceName(shard.source), String(index))),
  );
  fileList.hidden = shards.length < 2;
  // The list names the open file already.
  byId('file-name').hidden = !fileList.hidden;
  if (shards.length > 0) open(shards[0]!);
  else
    status.say(
      `No TFRecord file among the ${counted(list.length, 'file')} picked: index files (.idx), manifests and hidden files are not read as records.`,
    );
}

const fromFiles = (files: FileList | null): FileSource[] =>
  Array.from(files ?? [], (file): FileSource => ({ kind: 'file', file }));

for (const id of ['file-input', 'folder-input']) {
  byId<HTMLInputElement>(id).addEventListener('change', (event) => {
    openAll(fromFiles((event.target as HTMLInputElement).files));
  });
}
fileList.addEventListener('change', () => open(shards[Number(fileList.value)]!));

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
  const transfer = event.dataTransfer;
  if (transfer === null) return;
  const entries = droppedEntries(transfer);
  // A folder dropped opens as the Folder… picker opens it: its files by their paths in it.
  void entryFiles(entries).then(openAll, (error: unknown) =>
    status.requestFailed('read the dropped files', error instanceof Error ? error.message : String(error)),
  );
});

byId('previous').addEventListener('click', () => table.select(table.selected - 1));
byId('next').addEventListener('click', () => table.select(table.selected + 1));
byId('jump-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const recordIndex = Number(byId<HTMLInputElement>('jump').value);
  void ask(`find record ${recordIndex}`, (asked) => asked.rowOf(recordIndex), -1).then((row) => {
    if (row >= 0) table.select(row);
  });
});
byId('theme-toggle').addEventListener('click', toggleTheme);
for (const name of ['records', 'grid', 'stats'] as const) {
  byId(`tab-${name}`).addEventListener('click', () => showTab(name));
}

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
  f: () => byId('filter').focus(),
  o: () => byId('file-input').click(),
  t: toggleTheme,
  '1': () => showTab('records'),
  '2': () => showTab('grid'),
  '3': () => showTab('stats'),
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

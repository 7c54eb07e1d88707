import { byteSource } from './byte-source.js';
import { element } from './dom.js';
import type { FileSource } from './worker-protocol.js';
import { counted } from './words.js';

/** The largest manifest read, in bytes (the CLI's bound). @default 64 MiB */
export const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

/** What a file beside shards is: records, a DALI index of the file it names, or a tfpipe manifest. */
export type FileRole = 'records' | 'index' | 'manifest';

/** A shard to browse and the `.idx` beside it. */
export interface Shard {
  readonly source: FileSource;
  readonly index: FileSource | undefined;
}

/** The shards of picked files or a folder, with their `.idx` files and the manifests among them. */
export interface ShardSet {
  readonly shards: readonly Shard[];
  readonly manifests: readonly FileSource[];
}

/** The path a source is known by: a folder's files by their path inside it. */
export function sourceName(source: FileSource): string {
  if (source.kind === 'url') return source.name;
  if (source.path !== undefined) return source.path;
  // `webkitRelativePath` is '' for a file picked alone (and absent where a runtime lacks it).
  return source.file.webkitRelativePath || source.file.name;
}

/** A file's role from its name (as the sink names them: `<shard>.idx`, `<prefix>.manifest.json`). */
export function roleOf(name: string): FileRole | 'ignored' {
  const base = name.slice(name.lastIndexOf('/') + 1);
  if (base.startsWith('.')) return 'ignored';
  if (base.endsWith('.idx')) return 'index';
  if (base.endsWith('.manifest.json')) return 'manifest';
  return 'records';
}

/** Sorts picked files into shards (by path), their index files and manifests; dot-files are left out. */
export function shardSet(sources: readonly FileSource[]): ShardSet {
  const byName = new Map(sources.map((source) => [sourceName(source), source]));
  const shards: Shard[] = [];
  const manifests: FileSource[] = [];
  for (const [name, source] of [...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const role = roleOf(name);
    if (role === 'records') shards.push({ source, index: byName.get(`${name}.idx`) });
    else if (role === 'manifest') manifests.push(source);
  }
  return { shards, manifests };
}

/** One shard as a tfpipe manifest lists it. */
interface ManifestShard {
  readonly name: string;
  readonly records: number;
  readonly bytes: number;
  readonly sha256?: string;
  readonly compression?: string;
}

/** The fields of a tfpipe manifest (`tfpipe-tfrecord-manifest`, version 1) the page shows. */
export interface Manifest {
  readonly name: string;
  readonly format: string;
  readonly version: number;
  readonly payloadType: string;
  readonly compression: string;
  readonly records: number;
  readonly bytes: number;
  readonly shards: readonly ManifestShard[];
  readonly features: readonly { readonly name: string; readonly kind: string }[];
}

/**
 * Reads a manifest (at most {@link MAX_MANIFEST_BYTES}).
 * @throws Error naming the file when it is too large, not JSON or not a tfpipe manifest
 */
export async function readManifest(source: FileSource): Promise<Manifest> {
  const file = byteSource(source);
  const name = sourceName(source);
  if (file.size > MAX_MANIFEST_BYTES) {
    throw new Error(`${name}: ${file.size} bytes, more than the ${MAX_MANIFEST_BYTES} a manifest may have`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(await file.read(0, file.size)));
  } catch (error) {
    throw new Error(`${name}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const manifest = parsed as Partial<Manifest> | null;
  if (manifest?.format !== 'tfpipe-tfrecord-manifest' || !Array.isArray(manifest.shards)) {
    throw new Error(`${name}: not a tfpipe manifest (format "tfpipe-tfrecord-manifest" with shards)`);
  }
  return {
    ...(manifest as Manifest),
    name,
    features: Array.isArray(manifest.features) ? manifest.features : [],
  };
}

/** What the page has read of the open shard, to check against the manifest. */
export interface ShardReading {
  readonly name: string;
  /** Readable records, once the reading pass is done. */
  readonly records: number | undefined;
  readonly size: number;
}

/** The manifest as a panel: its totals, and its shards with the open one checked against the reader. */
export function manifestView(manifest: Manifest, open: ShardReading): HTMLElement {
  const base = (name: string): string => name.slice(name.lastIndexOf('/') + 1);
  const rows = manifest.shards.map((shard) => {
    const isOpen = base(shard.name) === base(open.name);
    let check = '';
    if (isOpen && open.records !== undefined) {
      check =
        open.records === shard.records && open.size === shard.bytes
          ? 'matches the file'
          : `the file has ${counted(open.records, 'readable record')}, ${counted(open.size, 'byte')}`;
    }
    const row = element(
      'tr',
      isOpen ? 'open-shard' : '',
      element('td', '', shard.name),
      element('td', 'number', String(shard.records)),
      element('td', 'number', String(shard.bytes)),
      element('td', 'muted', shard.sha256 === undefined ? '' : `${shard.sha256.slice(0, 12)}…`),
      element('td', check === 'matches the file' ? 'ok' : 'warning', check),
    );
    return row;
  });
  const head = element(
    'tr',
    '',
    ...['shard', 'records', 'bytes', 'sha256', ''].map((text) => element('th', '', text)),
  );
  return element(
    'details',
    'manifest',
    element(
      'summary',
      '',
      `${manifest.name}: ${counted(manifest.records, 'record')} (${manifest.payloadType}, ${manifest.compression}) in ${counted(manifest.shards.length, 'shard')}, ${counted(manifest.features.length, 'feature')}`,
    ),
    element('table', 'manifest-shards', element('thead', '', head), element('tbody', '', ...rows)),
  );
}

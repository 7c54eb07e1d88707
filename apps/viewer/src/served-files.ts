import type { FileSource } from './worker-protocol.js';

/** One entry of the list `tfpipe view` serves beside the page (`files.json`). */
interface ServedFile {
  readonly name: string;
  readonly url: string;
  readonly size: number;
}

/**
 * The files `tfpipe view` named on its command line, from the `files.json` it serves beside the page;
 * none when the page is opened on its own.
 */
export async function servedFiles(): Promise<FileSource[]> {
  let response: Response;
  try {
    response = await fetch('files.json', { cache: 'no-store' });
  } catch {
    return [];
  }
  if (!response.ok) return [];
  const files = (await response.json()) as readonly ServedFile[];
  return files.map((file) => ({
    kind: 'url',
    name: file.name,
    size: file.size,
    url: new URL(file.url, location.href).href,
  }));
}

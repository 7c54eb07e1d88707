// The docs' links test: every relative link of the repository's own Markdown leads to a file that exists, and every
// `#anchor` to a heading of that file, so moving a section or a file cannot leave a dead link behind.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, test } from 'vitest';
import { proseOf } from './__fixtures__/example-scripts.js';

const root = path.resolve(import.meta.dirname, '../../..');
/** Folders never searched: dependencies, build output, and the vendored corpus's third-party notes. */
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.turbo', 'corpus', '.changeset']);

/** Every `.md` file of the repository outside {@link SKIPPED} folders, relative to the root. */
function markdownFiles(directory = root): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) found.push(...markdownFiles(full));
    else if (entry.name.endsWith('.md')) found.push(path.relative(root, full));
  }
  return found.sort();
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, `-1`… for repeats. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  for (const match of markdown.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = match[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const seen = counts.get(base) ?? 0;
    counts.set(base, seen + 1);
    anchors.add(seen === 0 ? base : `${base}-${seen}`);
  }
  return anchors;
}

/** The relative link targets of a Markdown file: `[text](target)`, without web and mail links. */
function relativeLinks(markdown: string): string[] {
  const targets = [...proseOf(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(
    (match) => match[1]!,
  );
  return targets.filter((target) => !/^[a-z]+:/i.test(target));
}

/** What is wrong with one link of `file`, or undefined when it resolves. */
function brokenLink(file: string, target: string): string | undefined {
  const [pathPart = '', anchor] = target.split('#', 2);
  const resolved =
    pathPart === '' ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), pathPart);
  if (!existsSync(resolved)) return `${target}: no such file`;
  if (anchor === undefined || statSync(resolved).isDirectory()) return undefined;
  if (!resolved.endsWith('.md')) return undefined;
  return headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)
    ? undefined
    : `${target}: no such heading`;
}

test('anchors follow GitHub: code marks and punctuation dropped, repeats numbered', () => {
  const anchors = headingAnchors('# A `b` (c)\n## Known CRCs\n## Known CRCs\n```\n# not a heading\n```\n');
  expect([...anchors]).toEqual(['a-b-c', 'known-crcs', 'known-crcs-1']);
});

test('a dead file link and a dead anchor are both found', () => {
  expect(brokenLink('README.md', 'docs/no-such-file.md')).toBe('docs/no-such-file.md: no such file');
  expect(brokenLink('README.md', 'docs/architecture.md#no-such-heading')).toBe(
    'docs/architecture.md#no-such-heading: no such heading',
  );
  expect(brokenLink('README.md', 'docs/architecture.md#buffer-lending')).toBeUndefined();
});

describe('every relative link of the repository Markdown resolves', () => {
  const files = markdownFiles();
  test('the search finds the READMEs and docs', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'bench/README.md']));
  });
  test.each(files)('%s', (file) => {
    const broken = relativeLinks(readFileSync(path.join(root, file), 'utf8'))
      .map((target) => brokenLink(file, target))
      .filter((problem) => problem !== undefined);
    expect(broken).toEqual([]);
  });
});

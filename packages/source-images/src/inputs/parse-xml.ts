import { TfpipeError } from '@tfpipe/core';

/** An XML element: its name, child elements, text content and the 1-based line it opens on. */
export interface XmlElement {
  readonly name: string;
  readonly children: XmlElement[];
  text: string;
  readonly line: number;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * A small strict XML reader, enough for Pascal VOC annotations: elements, attributes (skipped), text,
 * the five predefined entities and numeric references, comments, CDATA, a declaration and a DOCTYPE
 * without an internal subset. Mismatched or unclosed tags, stray `<`, unknown entities and text
 * outside the root element are errors with the line, never repaired.
 * @throws TfpipeError `IMAGE_ANNOTATION`
 */
export function parseXml(text: string, file: string): XmlElement {
  let index = 0;
  let line = 1;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const fail = (reason: string): TfpipeError =>
    new TfpipeError('IMAGE_ANNOTATION', 'malformed XML annotation', {
      stage: 'imageSource',
      position: { file, line },
      reason,
    });
  const advanceTo = (end: number): void => {
    for (let position = index; position < end; position++) if (text.charCodeAt(position) === 10) line++;
    index = end;
  };
  const skipPast = (marker: string, what: string): string => {
    const end = text.indexOf(marker, index);
    if (end < 0) throw fail(`unterminated ${what}`);
    const content = text.slice(index, end);
    advanceTo(end + marker.length);
    return content;
  };
  const decode = (raw: string): string =>
    raw.replace(/&([^;&<>\s]*);?/g, (match, name: string) => {
      if (!match.endsWith(';')) throw fail(`a bare "&" (write &amp;)`);
      if (name.startsWith('#')) return characterReference(name, fail);
      const value = ENTITIES[name];
      if (value === undefined) throw fail(`unknown entity &${name};`);
      return value;
    });
  while (index < text.length) {
    const open = text.indexOf('<', index);
    const chunk = text.slice(index, open < 0 ? text.length : open);
    if (chunk.trim() !== '') {
      const current = stack.at(-1);
      if (current === undefined) throw fail('text outside the root element');
      current.text += decode(chunk);
    }
    advanceTo(open < 0 ? text.length : open);
    if (open < 0) break;
    if (text.startsWith('<!--', index)) skipPast('-->', 'comment');
    else if (text.startsWith('<![CDATA[', index)) {
      advanceTo(index + 9);
      const content = skipPast(']]>', 'CDATA section');
      const current = stack.at(-1);
      if (current === undefined) throw fail('CDATA outside the root element');
      current.text += content;
    } else if (text.startsWith('<?', index)) skipPast('?>', 'processing instruction');
    else if (text.startsWith('<!DOCTYPE', index)) {
      const content = skipPast('>', 'DOCTYPE');
      if (content.includes('[')) throw fail('DOCTYPE internal subsets are not supported');
    } else if (text.startsWith('</', index)) {
      advanceTo(index + 2);
      const name = skipPast('>', 'closing tag').trim();
      const current = stack.pop();
      if (current === undefined || current.name !== name) {
        throw fail(
          `closing tag </${name}> does not match ${current === undefined ? 'any open tag' : `<${current.name}>`}`,
        );
      }
    } else {
      const startLine = line;
      advanceTo(index + 1);
      const tag = skipPast('>', 'tag');
      const selfClosing = tag.endsWith('/');
      const match = /^([A-Za-z_][\w.:-]*)(\s[^<]*)?$/.exec(selfClosing ? tag.slice(0, -1) : tag);
      if (match === null) throw fail(`malformed tag <${tag}>`);
      const element: XmlElement = { name: match[1]!, children: [], text: '', line: startLine };
      const parent = stack.at(-1);
      if (parent !== undefined) parent.children.push(element);
      else if (root !== undefined) throw fail('a second root element');
      else root = element;
      if (!selfClosing) stack.push(element);
    }
  }
  if (stack.length > 0) throw fail(`<${stack.at(-1)!.name}> is never closed`);
  if (root === undefined) throw fail('no root element');
  return root;
}

/**
 * The character a numeric reference (`#65`, `#x41`) names. Only the digits of its base, and only a
 * code point XML allows as a character (XML 1.0 `Char`): `&#xZZ;` or `&#1114112;` would otherwise
 * reach `String.fromCodePoint` as NaN or past U+10FFFF and fail as a RangeError, not as this file's error.
 */
function characterReference(name: string, fail: (reason: string) => TfpipeError): string {
  const hex = name.startsWith('#x');
  const digits = name.slice(hex ? 2 : 1);
  // At most 8 digits: enough for any real code point, and no huge number to parse.
  if (!(hex ? /^[0-9A-Fa-f]{1,8}$/ : /^[0-9]{1,8}$/).test(digits))
    throw fail(`malformed character reference &${name};`);
  const codePoint = Number.parseInt(digits, hex ? 16 : 10);
  const allowed =
    codePoint === 0x9 ||
    codePoint === 0xa ||
    codePoint === 0xd ||
    (codePoint >= 0x20 && codePoint <= 0xd7ff) ||
    (codePoint >= 0xe000 && codePoint <= 0xfffd) ||
    (codePoint >= 0x10000 && codePoint <= 0x10ffff);
  if (!allowed) throw fail(`character reference &${name}; is not a character XML allows`);
  return String.fromCodePoint(codePoint);
}

/** The first child element called `name`, if any. */
export function childOf(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((child) => child.name === name);
}

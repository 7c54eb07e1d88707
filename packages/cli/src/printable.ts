/**
 * Control characters a terminal acts on: C0 (ESC, BEL, CR, backspace…) but tab and newline, DEL, C1
 * (U+009B is a one-character CSI), and the bidirectional overrides and isolates that reorder what is
 * shown.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_OR_LAYOUT = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escape(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
}

/**
 * `text` safe to print on a terminal: every control character escaped as `\x1b` (`\u202e` for the
 * bidirectional controls), so a feature or file name cannot clear the screen, move the cursor, set
 * the window title or hide text. Tabs and newlines are kept: use it on whole messages.
 */
export function printable(text: string): string {
  return text.replace(CONTROL, escape);
}

/** Like {@link printable}, and tabs and newlines escaped too: for one name inside a line or a column. */
export function printableName(text: string): string {
  return text.replace(CONTROL_OR_LAYOUT, escape);
}
